// No import cycle in src/: a file never reaches itself through the relative imports of the files
// it imports, type-only imports and re-exports counted (`import type` ties two files as much for a
// reader). A lazy `import()` is not an edge: it runs after both modules have loaded, and it is how
// a node-only or optional part stays off a path (the journal loads its compaction on demand).
// Read with the TypeScript compiler's own parser, so that a string that looks like an import does
// not count and a multi-line one does.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cyclesOf } from '../../scripts/lib/cycles.ts';
import { ROOT } from '../helpers/bundles.ts';
import { tsFilesUnder } from '../helpers/files.ts';

const SRC = join(ROOT, 'src');

/** The files of src/ a file imports or re-exports from (type-only too; not a lazy `import()`). */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) specifiers.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec))
    .filter((path) => path.startsWith(SRC) && existsSync(path));
}

describe('the import graph of src/', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['a']]]))).toEqual([['a']]);
  });

  it('reads type-only, re-export and multi-line imports', () => {
    const file = join(SRC, 'mock', 'model', 'types.ts');
    expect(importsOf(file).map((path) => relative(SRC, path))).toContain('mock/prng.ts');
  });

  it('has no import cycle, type-only imports counted', () => {
    const graph = new Map(tsFilesUnder(SRC).map((file) => [file, importsOf(file)]));
    const cycles = cyclesOf(graph).map((component) => component.map((path) => relative(SRC, path)).join(' ↔ '));
    expect(cycles).toEqual([]);
  });
});
