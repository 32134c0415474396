/**
 * The one way this repo runs the Redocly CLI (bundle, lint, anything else): the real CLI as a child
 * process, in a given working folder (its redocly.yaml applies), with telemetry and update notices
 * off. Bundling and linting go through the same CLI so that both resolve `$ref`s the same way.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { packageRoot } from '../../src/contract/index.ts';
import type { RedoclyApi } from './redocly-apis.ts';
import { checkSources } from './source-guard.ts';

const redoclyBin = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

export interface RedoclyRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `redocly <args>` in `cwd` (default: the repo root); never throws on a non-zero exit. */
export async function runRedocly(args: string[], cwd: string = packageRoot()): Promise<RedoclyRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [redoclyBin, ...args], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout = '', stderr = '' } = error as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, stdout, stderr };
  }
}

/**
 * Bundles every API version of redocly.yaml into `outDir`/<version>.yaml (YAML) with one Redocly run
 * (its start-up is most of a bundle's time: three runs took 2.5 s of CPU, one takes 0.8 s) and
 * returns the parsed documents by version. Each source passes the guard before Redocly reads it.
 */
export async function bundleApis(
  apis: readonly RedoclyApi[],
  outDir: string,
  root = packageRoot(),
): Promise<Map<string, Record<string, unknown>>> {
  await checkSources(
    apis.map((api) => join(root, api.root)),
    { sourceDir: join(root, 'openapi') },
  ); // before Redocly reads or fetches anything
  // Given several roots and --output, Redocly writes each to <outDir>/<basename of its root>: the
  // names must differ, and each file is renamed to its version below.
  const names = apis.map((api) => basename(api.root));
  if (new Set(names).size !== names.length) {
    throw new Error(
      `redocly.yaml: two API roots share a file name (${names.join(', ')}); Redocly would write one over the other`,
    );
  }
  const scratch = await mkdtemp(join(outDir, '.bundle-'));
  try {
    const run = await runRedocly(['bundle', ...apis.map((api) => api.root), '--output', scratch], root);
    if (run.code !== 0) {
      throw new Error(
        `Redocly could not bundle ${apis.map((api) => api.root).join(', ')}:\n${run.stdout}${run.stderr}`,
      );
    }
    const documents = new Map<string, Record<string, unknown>>();
    for (const [index, api] of apis.entries()) {
      const file = join(outDir, `${api.version}.yaml`);
      await rename(join(scratch, names[index] ?? ''), file);
      documents.set(api.version, parse(await readFile(file, 'utf8')) as Record<string, unknown>);
    }
    return documents;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
