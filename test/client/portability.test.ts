// The client runs in browsers, Node 20+, Deno and Bun: src/ uses web platform APIs only. Checked
// by type-checking src/ with the ES and DOM libs and no Node types, and by a browser bundle.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

const SRC = join(ROOT, 'src');

describe('src/ is portable', () => {
  // src/docs/ is the docs site (Node only: it reads files and serves them); the client never imports it.
  it('imports no Node module and names no Node global', async () => {
    const files = (await readdir(SRC, { withFileTypes: true })).filter((entry) => entry.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const { name: file } of files) {
      const code = (await readFile(join(SRC, file), 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/from\s+['"]\.\/docs\b/);
      expect(code, file).not.toMatch(/from\s+['"](node:|fs|path|http|https|url|util|os|stream|buffer|events)\b/);
      expect(code, file).not.toMatch(/\b(process|Buffer|require|__dirname|__filename|global|setImmediate)\b/);
    }
  });

  it('type-checks with the ES and DOM libs only (no @types/node)', () => {
    const program = ts.createProgram([join(SRC, 'index.ts')], {
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      verbatimModuleSyntax: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 90_000);

  it('bundles for the browser', async () => {
    const result = await build({
      entryPoints: [join(SRC, 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]?.text).not.toMatch(/from ["']node:/);
  });
});
