/**
 * vitest global setup: the CLI and the scripts the suites spawn (`BUNDLED` in
 * test/helpers/process.ts), bundled once per run by esbuild into node_modules/.cache/cli-bundle/.
 * A CLI process starts in ~0.7 s of CPU where `node --import tsx src/cli/bin.ts` took ~1.2 s (tsx's
 * loader thread and a hook round trip per module), `scripts/diff.ts` in 0.1 s against 0.5 s; the
 * suites spawn about seventy. The same source: npm's scripts still run it through tsx
 * (test/release/npm-scripts.test.ts) and test/package runs the compiled bin the tarball ships.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../helpers/bundles.ts';
import { BUNDLED, CLI_BUNDLE_DIR } from '../helpers/process.ts';

export default async function setup(): Promise<void> {
  await rm(CLI_BUNDLE_DIR, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(BUNDLED).map(([name, source]) => [name, join(ROOT, source)])),
    bundle: true,
    // Each command's (and script's) modules stay their own chunks, loaded when the command runs, as from source.
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
