/**
 * The mock as a child process (`node <the CLI> mock ...`, test/helpers/process.ts; one process, so that
 * SIGKILL kills the server itself), for the suites that kill or restart it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ROOT } from './bundles.ts';
import { CLI } from './process.ts';

export interface MockProcess {
  child: ChildProcess;
  url: string;
  /** What it printed on stderr so far. */
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function spawnMock(args: string[]): Promise<MockProcess> {
  const child = spawn(process.execPath, [...CLI, 'mock', '--port', '0', '--quiet', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const found = /listening on (\S+)/.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    url,
    stderr: () => stderr,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
