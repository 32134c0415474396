/**
 * Benchmark of forks (issue 30), printed as one table:
 *   1. a suite against one mock server (a child process): `--workers` parallel workers × `--tests`
 *      tests, each test forking one prepared global snapshot (`POST /__mock/forks`) and doing a few
 *      writes and a read, against the same suite where each test replays the preparation under a
 *      token of its own instead: wall time and the server's peak RSS, each mode on a fresh server;
 *   2. in process (the engine, `--expose-gc`): the cost per test of a fork against a replay, in µs
 *      (the fork alone, and with its writes) and in bytes of heap kept per test state.
 * The load average is printed beside the figures (a shared machine: compare the ratios).
 * Usage: node --expose-gc --import tsx scripts/bench/forks.ts [--workers 8] [--tests 200] [--states 1000]
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createMockEngine, type MockEngine } from '../../src/mock/index.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';
import { spawnNode } from '../lib/spawn-node.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '8' },
    tests: { type: 'string', default: '200' },
    states: { type: 'string', default: '1000' },
    bytes: { type: 'string' },
  },
});
const WORKERS = Number(values.workers);
const TESTS = Number(values.tests);
const STATES = Number(values.states);
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

interface Write {
  method: string;
  path: string;
  body: Record<string, unknown>;
}
/** The preparation: 30 writes (20 tickets, 10 pages), what every test of the suite starts from. */
const PREPARATION: Write[] = [
  ...Array.from({ length: 20 }, (_, i) => ({
    method: 'PATCH',
    path: `/tickets/${i + 1}/`,
    body: { subject: `prepared ${i + 1}` },
  })),
  ...Array.from({ length: 10 }, (_, i) => ({
    method: 'PUT',
    path: `/pages/${i + 1}/`,
    body: { title: `prepared ${i}` },
  })),
];
/** A test's own writes. */
const TEST_WRITES: Write[] = [1, 2, 3].map((id) => ({
  method: 'PATCH',
  path: `/tickets/${id}/`,
  body: { subject: `test write ${id}` },
}));

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

async function send(base: string, token: string, write: Write): Promise<void> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const response = await fetch(`${base}${write.path}`, {
    method: write.method,
    headers,
    body: JSON.stringify(write.body),
  });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`${write.method} ${write.path}: ${response.status}`);
}

/** One test over HTTP: its state (a fork, or the preparation replayed), its writes, one read. */
async function oneTest(base: string, mode: 'fork' | 'replay', name: string): Promise<void> {
  let token = name;
  if (mode === 'fork') {
    const response = await fetch(`${base}/__mock/forks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ snapshot: 'prepared' }),
    });
    token = ((await response.json()) as { token: string }).token;
  } else {
    for (const write of PREPARATION) await send(base, token, write);
  }
  for (const write of TEST_WRITES) await send(base, token, write);
  const read = await fetch(`${base}/tickets/20/`, { headers: { Authorization: `Bearer ${token}` } });
  const ticket = (await read.json()) as { subject: string };
  if (ticket.subject !== 'prepared 20') throw new Error(`test ${name} read ${ticket.subject}`);
}

/** The suite against a fresh server: wall time, peak and final RSS of the server. */
async function suite(mode: 'fork' | 'replay', rows: BenchRow[]): Promise<number> {
  const args = ['--import', 'tsx', 'src/cli/bin.ts', 'mock', '--port', '0', '--quiet'];
  const server = await spawnNode(args, /listening on (\S+)/, { cwd: ROOT, children });
  const atStart = rssMb(server.pid);
  let peak = atStart;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(server.pid));
  }, 20);
  if (mode === 'fork') {
    for (const write of PREPARATION) await send(server.url, 'setup', write);
    const body = JSON.stringify({ name: 'prepared' });
    const headers = { Authorization: 'Bearer setup', 'Content-Type': 'application/json' };
    await fetch(`${server.url}/__mock/global-snapshots`, { method: 'POST', headers, body });
  }
  const started = performance.now();
  const worker = async (w: number) => {
    for (let t = 0; t < TESTS; t++) await oneTest(server.url, mode, `w${w}-t${t}`);
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(server.pid));
  await server.stop();
  const label = mode === 'fork' ? 'each test forks the prepared snapshot' : 'each test replays the preparation';
  rows.push(
    {
      part: 'suite',
      measure: `wall time, ${label} (load ${load()})`,
      value: `${(wallMs / 1000).toFixed(2)} s`,
      target: '-',
    },
    {
      part: 'suite',
      measure: `server RSS at start / peak, ${label}`,
      value: `${atStart.toFixed(0)} / ${peak.toFixed(0)} MB`,
      target: '-',
    },
  );
  return wallMs;
}

async function handle(engine: MockEngine, token: string, write: Write): Promise<void> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const request = new Request(`http://bench.test${write.path}`, {
    method: write.method,
    headers,
    body: JSON.stringify(write.body),
  });
  const response = await engine.handle(request);
  await response.arrayBuffer(); // read, as a client would: an unread body is held until finalized
  if (response.status >= 300) throw new Error(`${write.method} ${write.path}: ${response.status}`);
}

/** Heap in use after full collections (a tick between them lets weak references be cleared). */
async function heap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().heapUsed;
}

/** An engine (request log of 1: its ring of bodies would outweigh the states) holding the global snapshot. */
async function preparedEngine(): Promise<MockEngine> {
  const engine = createMockEngine({ limits: { maxTokenStates: 1_000_000 }, requestLogSize: 1 });
  for (const write of PREPARATION) await handle(engine, 'setup', write);
  await engine.snapshot('prepared', 'setup', { global: true });
  return engine;
}

/** Makes one test's state: a fork, or the preparation replayed under its token. */
async function make(engine: MockEngine, mode: 'fork' | 'replay', token: string): Promise<void> {
  if (mode === 'fork') await engine.fork('prepared', token);
  else for (const write of PREPARATION) await handle(engine, token, write);
}

/** In process: µs to make each test's state and µs with its writes, after a warm-up of the same kind. */
async function perTestTime(mode: 'fork' | 'replay'): Promise<{ makeUs: number; testUs: number }> {
  const engine = await preparedEngine();
  for (let i = 0; i < STATES / 2; i++) {
    await make(engine, mode, `warm-${i}`);
    for (const write of TEST_WRITES) await handle(engine, `warm-${i}`, write);
  }
  const tokens = Array.from({ length: STATES }, (_, i) => `${mode}-${i}`);
  let started = performance.now();
  for (const token of tokens) await make(engine, mode, token);
  const makeUs = ((performance.now() - started) * 1000) / STATES;
  started = performance.now();
  for (const token of tokens) for (const write of TEST_WRITES) await handle(engine, token, write);
  return { makeUs, testUs: makeUs + ((performance.now() - started) * 1000) / STATES };
}

/**
 * Heap bytes each test state keeps, made and then written, in a fresh process (`--bytes MODE`),
 * measured as the growth from a first batch of such states to a second: the first (and every
 * other measure in the same process) released a few MB during its writes, once, which made the
 * growth over a single batch negative.
 */
async function perTestBytes(mode: 'fork' | 'replay'): Promise<{ madeBytes: number; bytes: number }> {
  const engine = await preparedEngine();
  const batch = async (name: string, writes: boolean) => {
    for (let i = 0; i < STATES; i++) {
      if (!writes) await make(engine, mode, `${name}-${i}`);
      else for (const write of TEST_WRITES) await handle(engine, `${name}-${i}`, write);
    }
  };
  await batch('first', false);
  await batch('first', true);
  const before = await heap();
  await batch('second', false);
  const madeBytes = ((await heap()) - before) / STATES;
  await batch('second', true);
  return { madeBytes, bytes: ((await heap()) - before) / STATES };
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) console.warn('run with node --expose-gc for the bytes per state');
  const rows: BenchRow[] = [];
  const bytesOf = (mode: string) => {
    const args = [...process.execArgv, import.meta.filename, '--bytes', mode, '--states', String(STATES)];
    return JSON.parse(execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })) as {
      madeBytes: number;
      bytes: number;
    };
  };
  const fork = { ...(await perTestTime('fork')), ...bytesOf('fork') };
  const replay = { ...(await perTestTime('replay')), ...bytesOf('replay') };
  rows.push(
    {
      part: 'per test',
      measure: `µs to make a test's state: fork / replay of 30 writes (load ${load()})`,
      value: `${fork.makeUs.toFixed(1)} / ${replay.makeUs.toFixed(1)} µs`,
      target: '-',
    },
    {
      part: 'per test',
      measure: 'µs per test with its 3 writes: fork / replay',
      value: `${fork.testUs.toFixed(1)} / ${replay.testUs.toFixed(1)} µs`,
      target: '-',
    },
    {
      part: 'per test',
      measure: `heap bytes per test state before its writes (${STATES} states): fork / replay`,
      value: `${fork.madeBytes.toFixed(0)} / ${replay.madeBytes.toFixed(0)} B`,
      target: '-',
    },
    {
      part: 'per test',
      measure: `heap bytes per test state after its 3 writes (${STATES} states): fork / replay`,
      value: `${fork.bytes.toFixed(0)} / ${replay.bytes.toFixed(0)} B`,
      target: '-',
    },
  );
  const forkMs = await suite('fork', rows);
  const replayMs = await suite('replay', rows);
  rows.push({
    part: 'suite',
    measure: `wall time ratio, replay / fork (${WORKERS} workers × ${TESTS} tests)`,
    value: (replayMs / forkMs).toFixed(2),
    target: '> 1',
  });
  printBenchTable(`Forks (${WORKERS} workers × ${TESTS} tests; load average now ${load()})`, rows);
}

if (values.bytes === 'fork' || values.bytes === 'replay') console.log(JSON.stringify(await perTestBytes(values.bytes)));
else await main();
