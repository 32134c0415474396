/**
 * wrk, the load generator of the benches (a Debian package: `apt-get install wrk`; a node client
 * would be the bottleneck of its own measure). Runs it with a Lua script and reads its summary.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * wrk, installed with apt-get (Debian's package "wrk") when missing: a bench never assumes it.
 * Throws with the fix when it is still missing.
 */
export function ensureWrk(): void {
  if (hasWrk()) return;
  console.log('wrk is missing: installing it with apt-get (Debian package "wrk")');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    for (const args of [
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', 'wrk'],
    ]) {
      const [command, ...rest] = [...sudo, ...args];
      execFileSync(command as string, rest, { stdio: 'inherit', env });
    }
  } catch {}
  if (!hasWrk()) throw new Error('wrk is not installed and apt-get could not install it: apt-get install -y wrk');
}

/** Is wrk on the PATH? */
export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk --version exits 1 after printing its version: only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  return true;
}

/** Lua pausing `ms` before each request of a connection (an offered load below saturation). */
export const paceLua = (ms: number) => `function delay() return ${ms} end\n`;

/** Lua setting request headers (wrk.headers; the spaces keep `[ [==[` from reading as a long string). */
export const headersLua = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `wrk.headers[ ${luaString(name)} ] = ${luaString(value)}\n`)
    .join('');

/** A Lua long string: any text, no escapes. */
export const luaString = (text: string) => `[==[${text}]==]`;

/** One request a wrk script sends over and over. */
export interface WrkRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** A new bearer token (`<token>-<n>`) every this many requests: a mock token's state holds a bounded number of records. */
  tokenEvery?: { token: string; every: number };
}

/** The Lua of a {@link WrkRequest}: its headers, method and body, and the token rotation when asked. */
export function requestLua(request: WrkRequest): string {
  const body =
    request.body !== undefined ? `wrk.method = "${request.method}"\nwrk.body = ${luaString(request.body)}\n` : '';
  const rotation = request.tokenEvery;
  const rotate = rotation
    ? `local sent = 0
request = function()
  sent = sent + 1
  wrk.headers["Authorization"] = "Bearer ${rotation.token}-" .. math.floor(sent / ${rotation.every})
  return wrk.format()
end
`
    : '';
  return `${headersLua(request.headers)}${body}${rotate}`;
}

/** CPU time (user + system) a process has used so far, in µs (from /proc, clock ticks of 10 ms). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
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

/** `lua` written to a file of its own; `done()` removes it once wrk has run. */
function writeScript(lua: string): { script: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'));
  const script = join(dir, 'script.lua');
  writeFileSync(script, lua);
  return { script, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const argsOf = (url: string, script: string, { connections = 20, threads = 2, seconds = 5 }: WrkOptions) => [
  ...['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency', '-s', script, url],
];

/** Runs wrk against `url` for `seconds` with `lua` as its script (--latency for the percentiles). */
export function runWrk(url: string, lua: string, options: WrkOptions = {}): WrkResult {
  const { script, done } = writeScript(lua);
  try {
    return parse(execFileSync('wrk', argsOf(url, script, options), { encoding: 'utf8' }));
  } finally {
    done();
  }
}

/**
 * One wrk run, with the CPU the server process `pid` spent per request (µs, user + system): a
 * measure the machine's load bends less than requests per second.
 */
export function runWrkOn(pid: number, url: string, lua: string, options: WrkOptions = {}) {
  const before = cpuMicros(pid);
  const result = runWrk(url, lua, options);
  return { ...result, cpuPerRequest: (cpuMicros(pid) - before) / Math.max(result.requests, 1) };
}

/** The same, without blocking this process (to sample the server meanwhile). */
export function runWrkAsync(url: string, lua: string, options: WrkOptions = {}): Promise<WrkResult> {
  const { script, done } = writeScript(lua);
  return new Promise<WrkResult>((resolve, reject) => {
    execFile('wrk', argsOf(url, script, options), { encoding: 'utf8' }, (error, out) =>
      error ? reject(error) : resolve(parse(out)),
    );
  }).finally(done);
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
