// Versions, the default version and the version header come from src/contract alone (issue #17):
// no API version is written as a literal in the code of the client, the mock or the MSW handlers,
// outside generated files (`*.generated.ts`, written by scripts/build.ts). A new API version is then
// a change of the contract, never of these subsystems. The versions looked for are the contract's
// own (VERSIONS), so a new one is covered the day it lands. Comments may name versions (they are
// not code); string literals, template parts, identifiers and property names may not.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { VERSIONS } from '../../src/contract/index.ts';
import { ROOT } from '../helpers/bundles.ts';
import { tsFilesUnder } from '../helpers/files.ts';

const SUBSYSTEMS = ['client', 'mock', 'msw'];
const GENERATED = /\.generated\.ts$/;

/** Each version literal of `source` as `line: text`, from its tokens (comments are skipped). */
function versionLiterals(source: string, versions: readonly string[] = VERSIONS): string[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const text =
      ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)
        ? node.text
        : ts.isIdentifier(node) || ts.isPrivateIdentifier(node)
          ? node.text
          : undefined;
    // An identifier names a version when it is the version itself (`unstable`); a string holds one anywhere.
    const hit =
      text !== undefined &&
      versions.find((v) =>
        ts.isIdentifier(node) ? text === v : new RegExp(`(^|[^A-Za-z0-9])${v}($|[^A-Za-z0-9])`).test(text),
      );
    if (hit) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('no API version literal outside src/contract and generated files', () => {
  it.each(SUBSYSTEMS)('src/%s', (subsystem) => {
    const hits = tsFilesUnder(join(ROOT, 'src', subsystem))
      .filter((file) => !GENERATED.test(file))
      .flatMap((file) => versionLiterals(readFileSync(file, 'utf8')).map((hit) => `${relative(ROOT, file)}:${hit}`));
    expect(hits).toEqual([]);
  });

  it.each([
    { code: "const v = '2023-02-10';", hits: 1 },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds a template literal.
    { code: 'const v = `x-${y}-unstable`;', hits: 1 },
    { code: "import type { A } from '../../generated/types/2024-04-01.ts';", hits: 1 },
    { code: 'const o = { unstable: 1 };', hits: 1 },
    { code: "if (version === 'unstable') {}", hits: 1 },
    { code: '// the 2023-02-10 shape\n/* unstable */ const v = VERSIONS[0];', hits: 0 },
    { code: "const word = 'an unstableness'; const unstableThing = 1; const d = '12024-04-011';", hits: 0 },
  ])('finds $hits in `$code` (control)', ({ code, hits }) => {
    expect(versionLiterals(code, ['2024-04-01', '2023-02-10', 'unstable'])).toHaveLength(hits);
  });
});
