/**
 * wrk, the load generator of the benches (a Debian package: `apt-get install wrk`; a node client
 * would be the bottleneck of its own measure). Runs it with a Lua script and reads its summary.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkResult {
  requestsPerSecond: number;
  requests: number;
  /** Answers that were not 2xx/3xx, and socket errors. */
  failures: number;
  p50Ms: number;
  p99Ms: number;
}

/** Fails with the fix when wrk is not installed (never skips the measure). */
export function requireWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('wrk is not installed: apt-get install -y wrk');
  }
}

const ms = (text: string | undefined): number => {
  const found = /([\d.]+)(us|ms|s)/.exec(text ?? '');
  if (!found) return Number.NaN;
  const value = Number(found[1]);
  return found[2] === 'us' ? value / 1000 : found[2] === 's' ? value * 1000 : value;
};

interface WrkOptions {
  connections?: number;
  threads?: number;
  seconds?: number;
}

function argsOf(url: string, lua: string, { connections = 20, threads = 2, seconds = 5 }: WrkOptions): string[] {
  const script = join(mkdtempSync(join(tmpdir(), 'wrk-')), 'script.lua');
  writeFileSync(script, lua);
  return ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency', '-s', script, url];
}

/** Runs wrk against `url` for `seconds` with `lua` as its script (--latency for the percentiles). */
export function runWrk(url: string, lua: string, options: WrkOptions = {}): WrkResult {
  return parse(execFileSync('wrk', argsOf(url, lua, options), { encoding: 'utf8' }));
}

/** The same, without blocking this process (to sample the server meanwhile). */
export function runWrkAsync(url: string, lua: string, options: WrkOptions = {}): Promise<WrkResult> {
  return new Promise((resolve, reject) => {
    execFile('wrk', argsOf(url, lua, options), { encoding: 'utf8' }, (error, out) =>
      error ? reject(error) : resolve(parse(out)),
    );
  });
}

function parse(out: string): WrkResult {
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    requests: Number(/(\d+) requests in/.exec(out)?.[1]),
    failures: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + socketErrors,
    p50Ms: ms(/\s50%\s+(\S+)/.exec(out)?.[1]),
    p99Ms: ms(/\s99%\s+(\S+)/.exec(out)?.[1]),
  };
}
