/**
 * Throughput benchmark of the data-backed mock, measured with wrk (a C load generator: a node:http
 * generator on the same two cores was the ceiling of its own measure, issue #17), one wrk run per
 * server and scenario, printed as one table with the machine's load average before and after.
 * Issue 28's requests, each against a bare node:http server answering the same bytes (status,
 * headers, body: the ceiling), measured back to back so that each ratio comes from one run:
 *   1. GET by id (GET /stockrecords/7/, 2023-02-10); target >= 0.6 of bare;
 *   2. the filtered list GET /subscriptions/?status=active in 2023-02-10 (subscription lines nest
 *      their product and stock record) and in 2024-04-01; targets >= 0.3 and >= 0.5 of bare, and
 *      >= 5x Prism's CLI on the same bundle (its example, unfiltered);
 *   3. POST create (POST /gift-cards/, 2023-02-10, a wrk Lua script; every answer must be a 200; a
 *      new token every 400 creates, under the per-token limit of records; how creates scale to
 *      200,000 records in one state: scripts/bench/store.ts); target >= 0.4 of bare;
 *   4. startup of the built CLI (dist/, what the published bin runs) to its first answered request
 *      (median of 3); target < 1 s.
 * The mock runs as `npm start` does (node --import tsx src/cli/bin.ts). Every server runs in its
 * own process; wrk (one thread) shares the machine with them. wrk is a Debian package: installed
 * here with apt-get when missing, never assumed.
 * `--profile DIR`: then each scenario again on a mock of its own under `node --cpu-prof` (profiles
 * in DIR/<scenario>/), printed as the share of the mock's CPU per stage (../lib/cpu-profile.ts)
 * and the functions with the most self time.
 * `--mock BIN`: the mock is that built CLI (e.g. another checkout's dist/src/cli/bin.js, for an A/B
 * of two commits on the same load), and startup is measured on it (nothing is built).
 * `--port N`: the servers listen on N, N+1, ... (a range of one's own on a shared machine), not on
 * ports the system picks.
 * Usage: tsx scripts/bench/mock.ts [--seconds S] [--connections N] [--profile DIR] [--mock BIN] [--port N]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION_HEADER } from '../../src/contract/index.ts';
import { DEFAULT_LIMITS } from '../../src/mock/index.ts';
import { type Answer, answerOf } from '../lib/answer.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';
import { buildCli } from '../lib/built-cli.ts';
import { summarizeProfile } from '../lib/cpu-profile.ts';
import { freePort } from '../lib/net.ts';
import { spawnNode as startNode } from '../lib/spawn-node.ts';
import { ensureWrk, requestLua, runWrkOn, type WrkResult } from '../lib/wrk.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PRISM = resolve(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    profile: { type: 'string' },
    mock: { type: 'string' },
    port: { type: 'string' },
  },
});
/** The next port to listen on: `--port`'s next, else 0 (the system picks). */
let portsTaken = 0;
const nextPort = () => (values.port === undefined ? 0 : Number(values.port) + portsTaken++);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const STARTUP_RUNS = 3;

interface Scenario {
  /** Its row in the table, and its profile's folder. */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  version: string;
  /** The bearer token: its own per-token state for the writes. */
  token: string;
  body?: string;
  /** A new token (`<token>-<n>`) every this many requests: a token's state holds a bounded number of records. */
  tokenEvery?: number;
  /** The target: at least this share of bare node:http's requests per second. */
  ofBare: number;
  /** Also measured against Prism's CLI on the same bundle (target: this many times its rate). */
  timesPrism?: number;
}
const GET_BY_ID: Scenario = {
  name: 'GET by id',
  method: 'GET',
  path: '/stockrecords/7/',
  version: '2023-02-10',
  token: 'bench',
  ofBare: 0.6,
};
const LIST = { method: 'GET', path: '/subscriptions/?status=active', token: 'bench', timesPrism: 5 } as const;
const LIST_NESTED: Scenario = { ...LIST, name: 'filtered list 2023-02-10', version: '2023-02-10', ofBare: 0.3 };
const LIST_FLAT: Scenario = { ...LIST, name: 'filtered list 2024-04-01', version: '2024-04-01', ofBare: 0.5 };
const CREATE: Scenario = {
  name: 'POST create',
  method: 'POST',
  path: '/gift-cards/',
  version: '2023-02-10',
  token: 'bench-create',
  body: JSON.stringify({ currency: 'EUR', initial: '50.00', expired_at: '2030-05-02T23:59:59Z' }),
  // Under the per-token limit of created records (DEFAULT_LIMITS.maxRecords, docs/mock.md).
  tokenEvery: Math.floor(DEFAULT_LIMITS.maxRecords * 0.8),
  ofBare: 0.4,
};
const SCENARIOS = [GET_BY_ID, LIST_NESTED, LIST_FLAT, CREATE];

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
  return runWrkOn(pid, `${base}${s.path}`, scenarioLua(s), { threads: 1, connections: CONNECTIONS, seconds });
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

const MOCK_CLI = values.mock === undefined ? ['--import', 'tsx', 'src/cli/bin.ts'] : [resolve(values.mock)];
const mockArgs = () => [...MOCK_CLI, 'mock', '--port', String(nextPort()), '--quiet'];
const startMockProcess = () => spawnNode(mockArgs(), /listening on (\S+)/);

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
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => console.log('bare on http://127.0.0.1:' + server.address().port));
`;

/** Prism's CLI on one bundle; it prints nothing at -v silent, so the port is polled. */
async function startPrism(version: string, probe: Scenario) {
  const port = values.port === undefined ? await freePort() : nextPort();
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
/** A scenario with a token of its own (a create's writes land in fresh states). */
const withToken = (s: Scenario, token: string): Scenario => ({ ...s, token });

/** One scenario: bare node:http answering the mock's bytes, then the mock, back to back; Prism after when asked. */
async function measure(mock: { url: string; pid: number }, s: Scenario, rows: BenchRow[]): Promise<void> {
  const answer = await once(mock.url, withToken(s, `${s.token}-probe`));
  if (answer.status !== 200)
    throw new Error(`${s.method} ${s.path} answered ${answer.status} on the mock: ${answer.body}`);
  const bare = await spawnNode(['-e', BARE_SERVER], /bare on (\S+)/, {
    BENCH_ANSWER: JSON.stringify(answer),
    BENCH_PORT: String(nextPort()),
  });
  // Warm-up (the JIT), discarded.
  wrk(bare.url, s, bare.pid, 1);
  wrk(mock.url, withToken(s, `${s.token}-warm-up`), mock.pid, 1);
  const ceiling = wrk(bare.url, s, bare.pid);
  const measured = wrk(mock.url, s, mock.pid);
  await bare.stop();
  const ratio = measured.requestsPerSecond / ceiling.requestsPerSecond;
  const part = `${s.name} (${s.method} ${s.path})`;
  rows.push({
    part,
    measure: `bare node:http, same ${fmt(answer.body.length)} B`,
    value: described(ceiling),
    target: '',
  });
  rows.push({
    part,
    measure: s.tokenEvery ? `mock, ${fmt(measured.requests)} created, a new token every ${s.tokenEvery}` : 'mock',
    value: described(measured),
    target: `${fmt(ratio, 2)} of bare (CPU/req: ${fmt(ceiling.cpuPerRequest / measured.cpuPerRequest, 2)}), >= ${s.ofBare}: ${verdict(ratio >= s.ofBare && !measured.failures)}`,
  });
  if (s.timesPrism === undefined) return;
  const prism = await startPrism(s.version, s);
  wrk(prism.url, s, prism.pid, 1);
  const oracle = wrk(prism.url, s, prism.pid);
  prism.stop();
  const times = measured.requestsPerSecond / oracle.requestsPerSecond;
  rows.push({ part, measure: `Prism CLI, ${s.version}.json (its example)`, value: described(oracle), target: '' });
  rows.push({
    part,
    measure: 'mock against Prism',
    value: `${fmt(times, 1)}x Prism (CPU/req: ${fmt(oracle.cpuPerRequest / measured.cpuPerRequest, 1)}x)`,
    target: `>= ${s.timesPrism}x: ${verdict(times >= s.timesPrism)}`,
  });
}

/** Startup of the built CLI: spawn to the first 200, the median of {@link STARTUP_RUNS}. */
async function startup(bin: string): Promise<number> {
  const startups: number[] = [];
  for (let run = 0; run < STARTUP_RUNS; run++) {
    const started = performance.now();
    const server = await spawnNode([bin, 'mock', '--port', String(nextPort()), '--quiet'], /listening on (\S+)/);
    const answer = await once(server.url, GET_BY_ID);
    if (answer.status !== 200) throw new Error(`startup: ${answer.status}`);
    startups.push(performance.now() - started);
    await server.stop();
  }
  startups.sort((a, b) => a - b);
  return startups[Math.floor(STARTUP_RUNS / 2)] ?? Number.NaN;
}

/** Each scenario on a mock of its own under --cpu-prof: its CPU per stage and its hottest functions. */
async function profile(dir: string): Promise<void> {
  for (const s of SCENARIOS) {
    const folder = resolve(dir, s.name.replace(/\W+/g, '-'));
    rmSync(folder, { recursive: true, force: true });
    const mock = await spawnNode(['--cpu-prof', `--cpu-prof-dir=${folder}`, ...mockArgs()], /listening on (\S+)/);
    wrk(mock.url, withToken(s, `${s.token}-warm-up`), mock.pid, 1);
    const from = Number(process.hrtime.bigint() / 1000n);
    const measured = wrk(mock.url, s, mock.pid);
    const to = Number(process.hrtime.bigint() / 1000n);
    await mock.stop();
    // The main thread's (tsx's loader runs in a worker thread of its own: thread 1).
    const file = readdirSync(folder).find((name) => /\.0\.\d+\.cpuprofile$/.test(name));
    if (!file) throw new Error(`no CPU profile in ${folder}`);
    const summary = summarizeProfile(resolve(folder, file), { from, to });
    const perRequest = (share: number) => `${fmt(share * 100, 1)}% = ${fmt(share * measured.cpuPerRequest, 1)} µs/req`;
    const rows = [
      ...summary.parts.map(([part, share]) => ({ part: 'stage', measure: part, value: perRequest(share), target: '' })),
      ...summary.leaves
        .slice(0, 8)
        .map(([fn, share]) => ({ part: 'self time', measure: fn, value: perRequest(share), target: '' })),
    ];
    printBenchTable(
      `CPU profile: ${s.name} (${s.method} ${s.path}, ${s.version}), ${fmt(measured.requestsPerSecond)} req/s under the profiler, server CPU ${fmt(measured.cpuPerRequest)} µs/req, ${summary.samples} busy samples; load average ${load()}; ${resolve(folder, file)}`,
      rows,
    );
  }
}

ensureWrk();
const loadBefore = load();
const rows: BenchRow[] = [];
console.log(
  `wrk -t1 -c${CONNECTIONS} -d${SECONDS}s per server and scenario, 127.0.0.1, ${availableParallelism()} cores; load average (1, 5, 15 min) ${loadBefore}`,
);
const mock = await startMockProcess();
for (const s of SCENARIOS) await measure(mock, s, rows);
const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${mock.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
rows.push({
  part: 'memory',
  measure: 'mock RSS after the runs above',
  value: `${fmt(rss)} MB`,
  target: '(the store bench owns the limits)',
});
await mock.stop();
const cli = values.mock === undefined ? buildCli(ROOT) : { bin: resolve(values.mock), remove() {} };
const median = await startup(cli.bin);
cli.remove();
rows.push({
  part: 'startup',
  measure: `built CLI (node dist/src/cli/bin.js mock) -> first 200 (median of ${STARTUP_RUNS})`,
  value: `${fmt(median)} ms`,
  target: `< 1 s: ${verdict(median < 1000)}`,
});
rows.push({
  part: 'machine',
  measure: 'load average (1, 5, 15 min) before / after',
  value: `${loadBefore} / ${load()}`,
  target: `${availableParallelism()} cores, shared`,
});
printBenchTable(`Mock benchmark (wrk, Node ${process.versions.node})`, rows);
if (values.profile) await profile(values.profile);
