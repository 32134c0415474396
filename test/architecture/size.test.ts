/**
 * The size rules of the style (CONTRIBUTING.md, issue #17): no function in src/ over 80 lines (the
 * project's own TypeScript parser measures them, generated files aside), and the engine's file is
 * wiring only, at most 200 lines (the stages live in src/mock/stages/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FUNCTION_LIMIT = 80;
const ENGINE_LIMIT = 200;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.generated\.ts$|\.d\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every function-like node with a body longer than `limit` lines, as `file:line (n lines)`. */
function longFunctions(file: string, text: string, limit: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - start + 1;
      if (lines > limit) found.push(`${relative(ROOT, file)}:${start + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('size rules', () => {
  it(`no function in src/ is longer than ${FUNCTION_LIMIT} lines`, () => {
    const long = sources(join(ROOT, 'src')).flatMap((file) =>
      longFunctions(file, readFileSync(file, 'utf8'), FUNCTION_LIMIT),
    );
    expect(long).toEqual([]);
  });

  it(`src/mock/engine.ts is wiring only: at most ${ENGINE_LIMIT} lines`, () => {
    const lines = readFileSync(join(ROOT, 'src/mock/engine.ts'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(ENGINE_LIMIT);
  });

  it('the measure finds a long function (negative control)', () => {
    const body = Array.from({ length: FUNCTION_LIMIT + 1 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('control.ts', `function long() {\n${body}\n}\n`, FUNCTION_LIMIT)).toHaveLength(1);
  });
});
