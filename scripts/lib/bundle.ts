/**
 * Bundles one API version with the Redocly CLI (the one tool that also lints it, so bundling and
 * linting resolve `$ref`s the same way) and returns the parsed document.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { checkSources } from './source-guard.ts';
import { type ApiVersion, rootOf } from './versions.ts';

const run = promisify(execFile);
const redoclyBin = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

export async function bundleVersion(version: ApiVersion, outFile: string): Promise<Record<string, unknown>> {
  await checkSources([rootOf(version)]); // before Redocly reads or fetches anything
  try {
    await run(process.execPath, [redoclyBin, 'bundle', rootOf(version), '--output', outFile], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
  } catch (error) {
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    throw new Error(`Redocly could not bundle ${rootOf(version)}:\n${stdout}${stderr}`);
  }
  return parse(await readFile(outFile, 'utf8')) as Record<string, unknown>;
}
