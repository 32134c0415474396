/** Runs a command to its end for the suites that drive real processes; never throws on a non-zero exit. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where test/setup/cli.ts bundles the CLI and the scripts the suites spawn, for each run. */
export const CLI_BUNDLE_DIR = fileURLToPath(new URL('../../node_modules/.cache/cli-bundle', import.meta.url));

/** The entry points test/setup/cli.ts bundles: the name of each bundle, and its source. */
export const BUNDLED = {
  bin: 'src/cli/bin.ts',
  diff: 'scripts/diff.ts',
  build: 'scripts/build.ts',
  'check-sources': 'scripts/check-sources.ts',
  generate: 'test/ecosystem/generate.ts',
  'deadline-gc': 'test/hostile/deadline-gc.ts',
} as const;
export type BundledSource = (typeof BUNDLED)[keyof typeof BUNDLED];

/**
 * The file that runs `source` (a path of BUNDLED, from the repository root) in one `node` process:
 * as test/setup/cli.ts bundled it for this run (the same source without tsx's ~0.35-0.5 s of CPU
 * per process; any cwd).
 */
export function bundled(source: BundledSource): string {
  const name = Object.entries(BUNDLED).find(([, file]) => file === source)?.[0];
  if (!name) throw new Error(`${source} is not bundled for the suites (BUNDLED, test/helpers/process.ts)`);
  return join(CLI_BUNDLE_DIR, `${name}.mjs`);
}

/** `node` arguments that run the CLI (src/cli/bin.ts, bundled). */
export const CLI = [bundled(BUNDLED.bin)];

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

/** Runs a command that must succeed: a non-zero exit throws, naming the command, with its output. */
export async function mustRun(command: string, args: string[], options: RunOptions): Promise<Run> {
  const run = await runProcess(command, args, options);
  if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run;
}
