/**
 * True words (issue #29): every file or folder that docs/architecture.md and CONTRIBUTING.md name in
 * backticks exists, CONTRIBUTING's layout names every folder of src/, and the comments of the code
 * (generated headers included) name files that exist. A name counts when it is a
 * path of the repo or the tail of one (`engine.ts` in "the mock inside", `stages/intake.ts`):
 * a renamed or removed file fails here until the docs follow. Templates (`<version>.json`,
 * `src/<subsystem>/`), globs, package specifiers and what the build writes (`dist/`) are not names
 * of files, nor is a URL path (`/__mock/`); a file that no longer exists is named without backticks.
 * CONTRIBUTING's "The recipes, tried" is a record of scratch branches (files that were never
 * merged), so it is left out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

/** Every file the repo holds (tracked, or new and not ignored) and every folder above one. */
const paths: Set<string> = (() => {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const found = new Set<string>();
  for (const file of out.split('\n').filter(Boolean)) {
    found.add(file);
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) found.add(`${parts.slice(0, i).join('/')}/`);
  }
  return found;
})();

/** Written by the build or a run, never committed. */
const BUILT = ['dist/', 'node_modules/'];
const EXTENSION = /\.(ts|js|md|json|jsonl|ya?ml|html)$/;

/** The backticked names of files and folders in `text`, with their line numbers. */
function namedPaths(text: string): { name: string; line: number }[] {
  const names: { name: string; line: number }[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [, name = ''] of line.matchAll(/`([^`\s]+)`/g)) {
      if (/[<>{}*|:@]/.test(name) || /^[-/]/.test(name)) continue;
      const bare = name.replace(/^\.\//, '');
      if (!bare.endsWith('/') && !EXTENSION.test(bare)) continue;
      if (!/^[\w./-]+$/.test(bare) || bare.startsWith('.')) continue;
      names.push({ name: bare, line: index + 1 });
    }
  });
  return names;
}

const exists = (name: string) =>
  BUILT.some((built) => name.startsWith(built)) ||
  paths.has(name) ||
  [...paths].some((path) => path.endsWith(`/${name}`));

/** A document's text without its section `heading` (up to the next heading of that level or above). */
function without(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return text;
  const level = heading.split(' ')[0] as string;
  const rest = text.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  // Blank lines keep the line numbers of what follows.
  const removed = text.slice(start, next < 0 ? text.length : start + heading.length + 2 + next);
  return text.replace(removed, '\n'.repeat(removed.split('\n').length - 1));
}

const DOCS: [string, (text: string) => string][] = [
  ['docs/architecture.md', (text) => text],
  ['CONTRIBUTING.md', (text) => without(text, '### The recipes, tried (issue #17)')],
];

describe('the files and folders the docs name exist', () => {
  it.each(DOCS)('%s', (doc, select) => {
    const names = namedPaths(select(readFileSync(join(ROOT, doc), 'utf8')));
    expect(names.length).toBeGreaterThan(10);
    const missing = names.filter(({ name }) => !exists(name)).map(({ name, line }) => `${doc}:${line} ${name}`);
    expect(missing).toEqual([]);
  });

  it('a name that is nowhere in the repo fails (the check can fail)', () => {
    const names = namedPaths('the model (`./relations.ts`), `src/mock/tokens.ts` and `engine.ts`');
    expect(names.map(({ name }) => exists(name))).toEqual([false, false, true]);
  });
});

describe("CONTRIBUTING's layout", () => {
  const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const layout = contributing.slice(contributing.indexOf('## Layout'), contributing.indexOf('## Recipes'));

  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory());
  it.each(folders.map((e) => e.name))('names src/%s', (name) => {
    expect(layout).toMatch(new RegExp(`src/<subsystem>/[^\\n]*\\b${name}\\b`));
  });
});

/** Comments that name a path which is not a file of the repo on purpose, with the reason. */
const NOT_FILES: Record<string, string[]> = {
  // The hostile `$ref` the guard refuses.
  'scripts/lib/source-guard.ts': ['../../etc/passwd'],
};
/** What the build or a run writes (not committed), named by comments. */
const OUTPUTS = ['generated/docs', 'test/.artifacts/'];
/** The package's export subpaths (`./mock`, `./types/*`…): names of the package, not files. */
const EXPORTS = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports).map((key) =>
  key.replace(/\*.*$/, ''),
);

/** The comments of a TypeScript source, from its tokens. */
function commentsOf(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push(scanner.getTokenText());
    }
  }
  return found;
}

/** The paths a comment of `file` names that are not there: a relative one from the file, `src/…` from the root. */
function missingPaths(file: string, comment: string): string[] {
  const missing: string[] = [];
  for (const [, path = ''] of comment.matchAll(/(?<![\w/.])(\.\.?\/[\w./-]*[\w/])/g)) {
    if (NOT_FILES[file]?.includes(path) || EXPORTS.some((key) => key !== '.' && path.startsWith(key))) continue;
    const target = resolve(ROOT, dirname(file), path);
    if (!existsSync(target) && !existsSync(`${target}.ts`)) missing.push(path);
  }
  for (const [, path = ''] of comment.matchAll(/(?<![\w/.@-])((?:src|scripts|test|generated)\/[\w./-]*[\w/])/g)) {
    if (!OUTPUTS.some((output) => path.startsWith(output)) && !existsSync(join(ROOT, path))) missing.push(path);
  }
  return missing;
}

describe('comments name files that exist', () => {
  const files = ['src', 'scripts', 'test', 'generated/types'].flatMap((top) =>
    (readdirSync(join(ROOT, top), { recursive: true }) as string[])
      .filter((name) => name.endsWith('.ts') && !name.includes('node_modules'))
      .map((name) => `${top}/${name.replaceAll('\\', '/')}`),
  );

  it('in src/, scripts/, test/ and the generated types (their headers name the generator)', () => {
    const missing = files.flatMap((file) =>
      commentsOf(readFileSync(join(ROOT, file), 'utf8')).flatMap((comment) =>
        missingPaths(file, comment).map((path) => `${file}: ${path}`),
      ),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('a comment naming a file that is not there fails (the check can fail)', () => {
    const comment = '// Generated by scripts/generate/types.ts; the store finds them (./relations.ts), ./types.ts';
    expect(missingPaths('src/mock/model/types.ts', comment)).toEqual(['./relations.ts', 'scripts/generate/types.ts']);
  });
});
