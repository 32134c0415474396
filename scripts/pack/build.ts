/**
 * Builds dist/, the compiled part of the published package (run by `prepack`, so `npm pack` and
 * `npm publish` always ship a fresh build; `postpack` runs it with --clean to leave the tree as it was):
 *   1. tsc -p tsconfig.build.json      src/ -> dist/src/*.{js,d.ts} (the client, ESM) and
 *                                         generated/types/ -> dist/generated/types/*.{js,d.ts} (the
 *                                         path types; their .js is an empty module)
 *   2. esbuild scripts/cli.ts          -> dist/bin/cli.js (+ chunks loaded per command). Prism and
 *                                         openapi-typescript stay external: they are optional peers,
 *                                         resolved at run time from the user's project
 *   3. tsx scripts/docs.ts             -> dist/docs/ (the reference site the packaged mock serves)
 * Usage: tsx scripts/pack/build.ts [--clean]
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { build } from 'esbuild';

/** Imports of the bin that must resolve in the user's project (optional peers and their own peer). */
const BIN_EXTERNALS = ['@stoplight/*', 'openapi-typescript', 'typescript'];

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'dist');
const { values } = parseArgs({ options: { clean: { type: 'boolean', default: false } } });

await rm(dist, { recursive: true, force: true });
if (!values.clean) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc -p tsconfig.build.json failed:\n${stdout}${stderr}`);
  }

  await build({
    entryPoints: { cli: join(root, 'scripts/cli.ts') },
    outdir: join(dist, 'bin'),
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: BIN_EXTERNALS,
    legalComments: 'none',
    logLevel: 'warning',
  });

  // 3. The API reference site (scripts/docs.ts: Stoplight Elements from node_modules) -> dist/docs,
  //    served by the packaged mock at /docs where @stoplight/elements (a devDependency) is absent.
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/docs.ts', '--out', join(dist, 'docs')], {
    cwd: root,
  });

  // stderr: `npm pack --json` prints its JSON on stdout, after this script's output.
  console.error('dist/ built: the client, the types, the bin, the docs');
}
