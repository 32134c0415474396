// The client runs in browsers, Node 20+, Deno and Bun: it and the contract model it imports use web
// platform APIs only (the model reaches Node's fs at call time, in src/contract/node.ts, only when
// asked to read bundles from disk). Checked by type-checking the client with the ES and DOM libs and
// no Node types, and by a browser bundle.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

const SRC = join(ROOT, 'src');
const ENTRY = join(SRC, 'client', 'index.ts');
/** The folders the client's module graph spans. */
const PORTABLE = ['client', 'contract'];

describe('src/ is portable', () => {
  // src/docs/ is the docs site (Node only: it reads files and serves them); the client never imports it.
  it('imports no Node module and names no Node global', async () => {
    for (const folder of PORTABLE) {
      for (const name of await readdir(join(SRC, folder))) {
        const file = `${folder}/${name}`;
        const code = (await readFile(join(SRC, file), 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
        expect(code, file).not.toMatch(/from\s+['"](node:|fs|path|http|https|url|util|os|stream|buffer|events)\b/);
        // The one door to Node: a property of globalThis, read when a bundle is loaded from disk.
        const globals = file === 'contract/node.ts' ? code.replace('globalThis as { process?:', '') : code;
        expect(globals, file).not.toMatch(/\b(Buffer|require|__dirname|__filename|global|setImmediate)\b|\bprocess\./);
      }
    }
  });

  it('type-checks with the ES and DOM libs only (no @types/node)', () => {
    const program = ts.createProgram([ENTRY], {
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      verbatimModuleSyntax: true,
      allowImportingTsExtensions: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 90_000);

  it('bundles for the browser', async () => {
    const result = await build({
      entryPoints: [ENTRY],
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
