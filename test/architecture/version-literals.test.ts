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
  return versionNodes(source, versions).map(({ where }) => where);
}

interface VersionNode {
  node: ts.Node;
  version: string;
  /** `line: text` */
  where: string;
}

function versionNodes(source: string, versions: readonly string[] = VERSIONS): VersionNode[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const found: VersionNode[] = [];
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
      found.push({ node, version: hit, where: `${line + 1}: ${node.getText()}` });
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

// test/ (issue 29 item 5: adding a version breaks no test). A test may name a version where it checks
// that version's own shape or example (a new version does not change them), only in the files below,
// each with its reason. What a new version changes is never written: the default version of an
// operation (`versionOf`), the list, order or count of versions (`VERSIONS`, `versionsOf`, the
// inventory `test/contract/inventory.ts`), so two rules hold in every file of test/: no array of two
// or more versions (a list or an order) and no version as the value an expectation waits for (a
// default the code chose; compare with the version the test sent or with `versionOf`). Unit tests
// of version logic use invented versions ('2020-01-01'), which no new version can collide with. An
// array walked one version at a time (`it.each`, `for … of`) checks each one's shape: allowed.
const TEST_ROOT = join(ROOT, 'test');
/** The one file allowed to list versions: the oracle every count and order derives from. */
const INVENTORY = 'test/contract/inventory.ts';
/** The files of test/ that name a version, each with why (what shape or example of it they check). */
const NAMES_VERSIONS: Record<string, string> = {
  'test/architecture/version-literals.test.ts': "the guard's controls",
  'test/client/client.test-d.ts': "each version's generated types and the calls they type",
  'test/client/client.test.ts': 'the header a call sends is the version it chose (`withVersion`)',
  'test/client/nullability.test-d.ts': "each version's generated types",
  'test/client/openapi-fetch-contract.test.ts': 'the header openapi-fetch sends as given',
  'test/client/paginate.test.ts': 'pages of the version chosen keep its header',
  'test/client/type-errors.test.ts': 'a call a version does not serve is a type error',
  'test/client/types-generation.test.ts': "the generator's unit test, on documents of its own",
  'test/conformance/client.test.ts': 'one typed call per operation and version it serves (the recipe step)',
  'test/conformance/runner.test.ts': 'a run limited to one version (`--version`)',
  'test/conformance/wrong-server.ts': "the breaks a fixture server plants in one version's operations",
  'test/contract/inventory.ts': 'the oracle: the versions of each operation, spec §9',
  'test/contract/lint.test.ts': "lint fixtures edit one version's parameter or path file",
  'test/contract/policies.test.ts': "one version's schemas and examples",
  'test/docs/browser.test.ts': "one version's page of the reference, and a version an operation is missing from",
  'test/docs/site.test.ts': 'a doctored copy of the unstable bundle',
  'test/drift/analyze.test.ts': "exchanges built from one version's examples",
  'test/drift/propose.test.ts': "edits learned from one version's examples",
  'test/drift/replay.test.ts': "exchanges of one version's operation",
  'test/ecosystem/consumer/calls.ts': 'the downstream app, written for the versions it calls',
  'test/ecosystem/generators.test.ts': "the downstream app's calls and a doctored unstable bundle",
  'test/ecosystem/spectral.test.ts': 'Spectral lints the unstable bundle',
  'test/fuzz/fuzz.test.ts': 'a run limited to one version, its report lines',
  'test/fuzz/wrong-server.ts': "the breaks a fixture server plants in one version's operations",
  'test/hostile/diff-depth.test.ts': "one version's bundle, deepened",
  'test/hostile/diff.test.ts': "one version's bundle, changed",
  'test/hostile/drift-replay.test.ts': "exchanges of one version's operations",
  'test/hostile/fuzz.test.ts': "a hostile server answering one version's operation",
  'test/hostile/recording-hostile.test.ts': 'requests recorded with the version they sent',
  'test/hostile/scopes.test.ts': 'an operation only unstable serves',
  'test/hostile/sources.test.ts': "one version's root document, made hostile",
  'test/mock/admin.test.ts': 'the journal keeps the version a request sent',
  'test/mock/cors.test.ts': 'the version a cross-origin page sends comes back',
  'test/mock/fixtures/browser-app.ts': 'the app calls the older shape by its version',
  'test/mock/inspector.test.ts': 'the inspector shows the version a request sent',
  'test/mock/options.test.ts': 'unstable left out of the copied directory',
  'test/mock/refusals.test.ts': 'a refusal names the version it was sent',
  'test/mock/scenarios-e2e.test.ts': 'an operation only unstable serves',
  'test/mock/scopes-scenarios.test.ts': "a failure scenario's context",
  'test/mock/session.test.ts': "one version's validators",
  'test/mock/store.test.ts': "each version's shape of one record",
  'test/mock/units.test.ts': "the router's unit test, on routes of its own",
  'test/mock/versioning.test.ts': "each version's shape of GET /subscriptions/",
  'test/msw/handlers.test.ts': 'the older shape by its version',
  'test/msw/overrides.test-d.ts': 'the unstable Ticket type',
  'test/package/package.test.ts': "the tarball's per-version entry points",
  'test/proxy/cli.test.ts': "a violation line names the exchange's version",
  'test/proxy/loop.test.ts': "requests sent with one version's header",
  'test/proxy/proxy.test.ts': "requests sent with one version's header",
  'test/proxy/record.test.ts': 'requests recorded with the version they sent',
  'test/release/package-info.test.ts': '`unstable`, the one version name that is not a date',
};
/** This file: its controls list versions on purpose. */
const SELF = 'test/architecture/version-literals.test.ts';
const EXPECT_VALUE = new Set(['toBe', 'toEqual', 'toStrictEqual']);

/** An array walked one version at a time (`it.each`, `for … of`): each a shape check, no order. */
function iterated(array: ts.ArrayLiteralExpression): boolean {
  let node: ts.Node = array;
  while (ts.isAsExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const { parent } = node;
  if (ts.isForOfStatement(parent)) return parent.expression === node;
  return (
    ts.isCallExpression(parent) &&
    ts.isPropertyAccessExpression(parent.expression) &&
    parent.expression.name.text === 'each' &&
    parent.arguments[0] === node
  );
}

/** The two misuses of `source`: a list of versions, a version as an expected value. */
function versionMisuses(source: string, versions: readonly string[] = VERSIONS): string[] {
  return versionNodes(source, versions).flatMap(({ node, where }) => {
    const exact = ts.isStringLiteralLike(node) && versions.includes(node.text);
    const parent = node.parent;
    if (exact && ts.isArrayLiteralExpression(parent) && !iterated(parent)) {
      const listed = new Set(
        parent.elements.filter((e) => ts.isStringLiteralLike(e) && versions.includes(e.text)).map((e) => e.getText()),
      );
      // Reported once, at the first version of the array.
      if (
        listed.size > 1 &&
        parent.elements.find((e) => ts.isStringLiteralLike(e) && versions.includes(e.text)) === node
      )
        return [`${where} (a list of versions)`];
    }
    if (
      exact &&
      ts.isCallExpression(parent) &&
      parent.arguments[0] === node &&
      ts.isPropertyAccessExpression(parent.expression) &&
      EXPECT_VALUE.has(parent.expression.name.text)
    )
      return [`${where} (an expected version)`];
    return [];
  });
}

const TEST_FILES = tsFilesUnder(TEST_ROOT).filter((file) => !file.includes('node_modules'));
const rel = (file: string) => relative(ROOT, file).split('\\').join('/');

describe('test/: versions named only as shapes, never as a default, a list or an order', () => {
  it('every file that names a version is listed with its reason, and every listed file names one', () => {
    const naming = TEST_FILES.filter((file) => versionLiterals(readFileSync(file, 'utf8')).length > 0).map(rel);
    expect(naming.filter((file) => !(file in NAMES_VERSIONS))).toEqual([]);
    expect(Object.keys(NAMES_VERSIONS).filter((file) => !naming.includes(file))).toEqual([]);
  });

  it('no file but the inventory lists versions or expects one', () => {
    const hits = TEST_FILES.filter((file) => ![INVENTORY, SELF].includes(rel(file))).flatMap((file) =>
      versionMisuses(readFileSync(file, 'utf8')).map((hit) => `${rel(file)}:${hit}`),
    );
    expect(hits).toEqual([]);
  });

  it.each([
    { code: "const order = ['2024-04-01', '2023-02-10'];", hits: 1 },
    { code: "expect(version).toBe('unstable');", hits: 1 },
    { code: "expect(response.headers.get('v')).toEqual('2023-02-10');", hits: 1 },
    { code: "const one = ['2024-04-01', '2024-04-01']; client.withVersion('2023-02-10');", hits: 0 },
    {
      code: "it.each(['2024-04-01', '2023-02-10'] as const)('x', f); for (const v of ['unstable', '2023-02-10']) f(v);",
      hits: 0,
    },
    {
      code: "expect(v).toBe(versionOf('getStore')); expect(x).toBe('2020-01-01'); fn('unstable', '2023-02-10');",
      hits: 0,
    },
  ])('finds $hits misuse(s) in `$code` (control)', ({ code, hits }) => {
    expect(versionMisuses(code, ['2024-04-01', '2023-02-10', 'unstable'])).toHaveLength(hits);
  });
});
