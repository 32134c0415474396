/**
 * vitest global setup: the CLI the suites spawn (`CLI` in test/helpers/process.ts), bundled once
 * per run from src/cli/bin.ts by esbuild into node_modules/.cache/cli-bundle/. A process of it
 * starts in ~0.7 s of CPU where `node --import tsx src/cli/bin.ts` took ~1.2 s (tsx's loader
 * thread and a hook round trip per module); the suites spawn about fifty. The same source: npm's
 * scripts still run it through tsx (test/release/npm-scripts.test.ts) and test/package runs the
 * compiled bin the tarball ships.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../helpers/bundles.ts';
import { CLI_BUNDLE_DIR } from '../helpers/process.ts';

export default async function setup(): Promise<void> {
  await rm(CLI_BUNDLE_DIR, { recursive: true, force: true });
  await build({
    entryPoints: { bin: join(ROOT, 'src/cli/bin.ts') },
    bundle: true,
    // Each command's modules stay their own chunks, loaded when the command runs, as from source.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dependencies and optional peers resolve from node_modules as they do for the source.
    packages: 'external',
    outdir: CLI_BUNDLE_DIR,
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
  });
}
