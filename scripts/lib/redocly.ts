/**
 * The one way this repo runs the Redocly CLI (bundle, lint, anything else): the real CLI as a child
 * process, in a given working folder (its redocly.yaml applies), with telemetry and update notices
 * off. Bundling and linting go through the same CLI so that both resolve `$ref`s the same way.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
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

/** Bundles one API version of redocly.yaml into `outFile` (YAML) and returns the parsed document. */
export async function bundleApi(
  api: RedoclyApi,
  outFile: string,
  root = packageRoot(),
): Promise<Record<string, unknown>> {
  await checkSources([join(root, api.root)], { sourceDir: join(root, 'openapi') }); // before Redocly reads or fetches anything
  const run = await runRedocly(['bundle', api.root, '--output', outFile], root);
  if (run.code !== 0) throw new Error(`Redocly could not bundle ${api.root}:\n${run.stdout}${run.stderr}`);
  return parse(await readFile(outFile, 'utf8')) as Record<string, unknown>;
}
