/** Runs a command to its end for the suites that drive real processes; never throws on a non-zero exit. */
import { spawn } from 'node:child_process';

/**
 * `node` arguments that run the CLI from source (cwd: the repository root) in one process: tsx as a
 * loader (`--import`), never the tsx CLI, which wraps it in a second node process (~0.4 s of CPU each).
 */
export const CLI = ['--import', 'tsx', 'src/cli/bin.ts'];

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
