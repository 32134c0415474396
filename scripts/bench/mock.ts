/**
 * Throughput benchmark of the data-backed mock, measured with wrk (a C load generator: a node:http
 * generator on the same two cores was the ceiling of its own measure, issue #17), one wrk run per
 * scenario, printed as one table with the machine's load average before and after:
 *   1. GET by id (GET /stockrecords/3/, 2023-02-10) on the mock and on a bare node:http server
 *      answering the same bytes (status, headers, body: the ceiling); target >= 0.5 of bare;
 *   2. a filtered list page (GET /subscriptions/?status=active&status=past_due&is_test=false,
 *      2024-04-01) on the mock and on Prism's CLI on the same bundle; target >= 3x Prism;
 *   3. POST create (POST /gift-cards/, 2023-02-10, a wrk Lua script; every answer must be a 200;
 *      on `npm start`'s mock (tsx) and on the built one (dist/, what the published bin runs);
 *      a new token every 400 creates, under the per-token limit of records); target >= 8,000 req/s
 *      (how creates scale to 200,000 records in one state: scripts/bench/store.ts);
 *   4. startup: spawning the mock to its first answered request (median of 3); target < 2 s.
 * Every server runs in its own process; wrk (one thread) shares the machine with them. wrk is a
 * Debian package: installed here with apt-get when missing, never assumed.
 * `--profile DIR` writes a V8 CPU profile of the mock under the load (node --cpu-prof) to DIR.
 * Usage: tsx scripts/bench/mock.ts [--seconds S] [--connections N] [--profile DIR]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION_HEADER } from '../../src/contract/index.ts';
import { DEFAULT_LIMITS } from '../../src/mock/index.ts';
import { type Answer, answerOf } from '../lib/answer.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';
import { buildCli } from '../lib/built-cli.ts';
import { freePort } from '../lib/net.ts';
import { spawnNode as startNode } from '../lib/spawn-node.ts';
import { cpuMicros, ensureWrk, requestLua, runWrk, type WrkResult } from '../lib/wrk.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PRISM = resolve(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    profile: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const STARTUP_RUNS = 3;

interface Scenario {
  method: 'GET' | 'POST';
  path: string;
  version: string;
  /** The bearer token: its own per-token state for the writes. */
  token: string;
  body?: string;
  /** A new token (`<token>-<n>`) every this many requests: a token's state holds a bounded number of records. */
  tokenEvery?: number;
}
const GET_BY_ID: Scenario = { method: 'GET', path: '/stockrecords/3/', version: '2023-02-10', token: 'bench' };
const FILTERED_LIST: Scenario = {
  method: 'GET',
  path: '/subscriptions/?status=active&status=past_due&is_test=false',
  version: '2024-04-01',
  token: 'bench',
};
const CREATE: Scenario = {
  method: 'POST',
  path: '/gift-cards/',
  version: '2023-02-10',
  token: 'bench-create',
  body: JSON.stringify({ currency: 'EUR', initial: '50.00', expired_at: '2030-05-02T23:59:59Z' }),
  // Under the per-token limit of created records (DEFAULT_LIMITS.maxRecords, docs/mock.md).
  tokenEvery: Math.floor(DEFAULT_LIMITS.maxRecords * 0.8),
};

const headersOf = (s: Scenario): Record<string, string> => ({
  Authorization: `Bearer ${s.token}`,
  [VERSION_HEADER]: s.version,
  ...(s.body !== undefined && { 'Content-Type': 'application/json' }),
});

// wrk ---------------------------------------------------------------------------------------------

interface Measured extends WrkResult {
  /** CPU µs the server process spent per request. */
  cpuPerRequest: number;
}

/** A wrk Lua script sending `s` (a new token every `tokenEvery` requests when set). */
const scenarioLua = (s: Scenario): string =>
  requestLua({
    method: s.method,
    headers: headersOf(s),
    ...(s.body !== undefined && { body: s.body }),
    ...(s.tokenEvery && { tokenEvery: { token: s.token, every: s.tokenEvery } }),
  });

/**
 * One wrk run of `seconds` against `base` (one thread, CONNECTIONS keep-alive connections), with
 * the CPU the server process `pid` spent per request: a measure the machine's load bends less.
 */
function wrk(base: string, s: Scenario, pid: number, seconds = SECONDS): Measured {
  const cpuBefore = cpuMicros(pid);
  const result = runWrk(`${base}${s.path}`, scenarioLua(s), { threads: 1, connections: CONNECTIONS, seconds });
  return { ...result, cpuPerRequest: (cpuMicros(pid) - cpuBefore) / result.requests };
}

// Servers -----------------------------------------------------------------------------------------

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.pid && child.exitCode === null) child.kill('SIGKILL');
});
process.on('SIGINT', () => process.exit(130));

/** A node process printing its URL on stdout (../lib/spawn-node.ts), one of this script's children. */
const spawnNode = (args: string[], match: RegExp, env: Record<string, string> = {}) =>
  startNode(args, match, { cwd: ROOT, children, env });

const MOCK_ARGS = ['--import', 'tsx', 'src/cli/bin.ts', 'mock', '--port', '0', '--quiet'];
const startMockProcess = () =>
  spawnNode(
    values.profile ? [`--cpu-prof`, `--cpu-prof-dir=${resolve(values.profile)}`, ...MOCK_ARGS] : MOCK_ARGS,
    /listening on (\S+)/,
  );

/** The built CLI's mock, what `npx store-admin-contract mock` runs (../lib/built-cli.ts). */
async function startBuiltMock() {
  const cli = buildCli(ROOT);
  const server = await spawnNode([cli.bin, 'mock', '--port', '0', '--quiet'], /listening on (\S+)/);
  const stop = async () => {
    await server.stop();
    cli.remove();
  };
  return { ...server, stop };
}

const once = (base: string, s: Scenario): Promise<Answer> =>
  answerOf(`${base}${s.path}`, {
    method: s.method,
    headers: headersOf(s),
    ...(s.body !== undefined && { body: s.body }),
  });

/** The ceiling: node:http answering the mock's own status, headers and body, nothing else. */
const BARE_SERVER = `
const answer = JSON.parse(process.env.BENCH_ANSWER);
const body = Buffer.from(answer.body);
const headers = { ...answer.headers, 'content-length': body.length };
const server = require('node:http').createServer((req, res) => {
  res.writeHead(answer.status, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('bare on http://127.0.0.1:' + server.address().port));
`;

/** Prism's CLI on one bundle; it prints nothing at -v silent, so the port is polled. */
async function startPrism(version: string, probe: Scenario) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM, 'mock', '-p', String(port), '-h', '127.0.0.1', '-v', 'silent', `generated/openapi/${version}.json`],
    { cwd: ROOT, stdio: 'ignore' },
  );
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const status = await once(url, probe).then(
      (a) => a.status,
      () => 0,
    );
    if (status === 200) break;
    if (child.exitCode !== null || tries > 600) throw new Error(`Prism on ${version} did not start`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return { url, pid: child.pid as number, stop: () => child.kill('SIGTERM') };
}

// The run -----------------------------------------------------------------------------------------

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const described = (r: Measured) =>
  `${fmt(r.requestsPerSecond)} req/s (p50 ${fmt(r.p50Ms, 2)} ms, p99 ${fmt(r.p99Ms, 2)} ms, server CPU ${fmt(r.cpuPerRequest)} µs/req${r.failures ? `, ${fmt(r.failures)} failed` : ''})`;
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

ensureWrk();
const loadBefore = load();
const rows: BenchRow[] = [];
console.log(
  `scenarios: GET by id ${GET_BY_ID.path} (${GET_BY_ID.version}); filtered list ${FILTERED_LIST.path} (${FILTERED_LIST.version}); POST create ${CREATE.path} (${CREATE.version})`,
);
console.log(
  `wrk -t1 -c${CONNECTIONS} -d${SECONDS}s per scenario, 127.0.0.1, ${availableParallelism()} cores; load average (1, 5, 15 min) ${loadBefore}`,
);

const mock = await startMockProcess();
const built = await startBuiltMock();
for (const s of [GET_BY_ID, FILTERED_LIST]) {
  const answer = await once(mock.url, s);
  if (answer.status !== 200)
    throw new Error(`${s.method} ${s.path} answered ${answer.status} on the mock: ${answer.body}`);
}
const bare = await spawnNode(['-e', BARE_SERVER], /bare on (\S+)/, {
  BENCH_ANSWER: JSON.stringify(await once(mock.url, GET_BY_ID)),
});
const prism = await startPrism(FILTERED_LIST.version, FILTERED_LIST);

// Warm-up of every server (its JIT), discarded.
for (const [server, s] of [
  [bare, GET_BY_ID],
  [prism, FILTERED_LIST],
  [mock, GET_BY_ID],
  [mock, FILTERED_LIST],
] as const) {
  wrk(server.url, s, server.pid, 1);
}

{
  const ceiling = wrk(bare.url, GET_BY_ID, bare.pid);
  const measured = wrk(mock.url, GET_BY_ID, mock.pid);
  const ratio = measured.requestsPerSecond / ceiling.requestsPerSecond;
  const part = 'GET by id';
  rows.push({ part, measure: 'bare node:http, same bytes', value: described(ceiling), target: '' });
  rows.push({
    part,
    measure: 'mock',
    value: described(measured),
    target: `${fmt(ratio, 2)} of bare (CPU/req: ${fmt(ceiling.cpuPerRequest / measured.cpuPerRequest, 2)}), >= 0.50: ${verdict(ratio >= 0.5 && !measured.failures)}`,
  });
}
{
  const oracle = wrk(prism.url, FILTERED_LIST, prism.pid);
  const measured = wrk(mock.url, FILTERED_LIST, mock.pid);
  const ratio = measured.requestsPerSecond / oracle.requestsPerSecond;
  const part = 'filtered list';
  rows.push({ part, measure: `Prism CLI, ${FILTERED_LIST.version}.json`, value: described(oracle), target: '' });
  rows.push({
    part,
    measure: 'mock',
    value: described(measured),
    target: `${fmt(ratio, 1)}x Prism (CPU/req: ${fmt(oracle.cpuPerRequest / measured.cpuPerRequest, 1)}x), >= 3x: ${verdict(ratio >= 3 && !measured.failures)}`,
  });
}
await bare.stop();
prism.stop();
for (const [server, what] of [
  [mock, 'mock (npm start: tsx)'],
  [built, 'mock built (dist/: what the published bin runs)'],
] as const) {
  wrk(server.url, { ...CREATE, token: `bench-create-warm-up-${server.pid}` }, server.pid, 1);
  const measured = wrk(server.url, { ...CREATE, token: `bench-create-${server.pid}` }, server.pid);
  rows.push({
    part: 'POST create',
    measure: `${what}, ${fmt(measured.requests)} gift cards created, a new token every ${CREATE.tokenEvery}`,
    value: described(measured),
    target: `>= 8,000 req/s: ${verdict(measured.requestsPerSecond >= 8000 && !measured.failures)}`,
  });
}
await built.stop();
const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${mock.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
rows.push({
  part: 'memory',
  measure: 'mock RSS after the runs above',
  value: `${fmt(rss)} MB`,
  target: '(the store bench owns the limits)',
});
await mock.stop();

// Startup: spawn to the first 200.
const startups: number[] = [];
for (let run = 0; run < STARTUP_RUNS; run++) {
  const started = performance.now();
  const server = await startMockProcess();
  const answer = await once(server.url, GET_BY_ID);
  if (answer.status !== 200) throw new Error(`startup: ${answer.status}`);
  startups.push(performance.now() - started);
  await server.stop();
}
startups.sort((a, b) => a - b);
const median = startups[Math.floor(STARTUP_RUNS / 2)] ?? Number.NaN;
rows.push({
  part: 'startup',
  measure: `node --import tsx src/cli/bin.ts mock -> first 200 (median of ${STARTUP_RUNS})`,
  value: `${fmt(median)} ms`,
  target: `< 2 s: ${verdict(median < 2000)}`,
});
rows.push({
  part: 'machine',
  measure: 'load average (1, 5, 15 min) before / after',
  value: `${loadBefore} / ${load()}`,
  target: `${availableParallelism()} cores, shared`,
});
if (values.profile) console.log(`CPU profiles of the mock: ${resolve(values.profile)}`);
printBenchTable(`Mock benchmark (wrk, Node ${process.versions.node})`, rows);
