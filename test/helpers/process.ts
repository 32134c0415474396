/** Runs a command to its end for the suites that drive real processes; never throws on a non-zero exit. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where test/setup/cli.ts bundles src/cli/bin.ts for each run. */
export const CLI_BUNDLE_DIR = fileURLToPath(new URL('../../node_modules/.cache/cli-bundle', import.meta.url));

/**
 * `node` arguments that run the CLI in one process: src/cli/bin.ts as test/setup/cli.ts bundled it
 * for this run (the same source without tsx's ~0.5 s of CPU per process; any cwd).
 */
export const CLI = [join(CLI_BUNDLE_DIR, 'bin.mjs')];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Killed (SIGKILL) after this long, so a hung child cannot outlive the suite. */
  timeoutMs?: number;
}

export function runProcess(
  command: string,
  args: string[],
  { cwd, env, timeoutMs = 240_000 }: RunOptions,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
