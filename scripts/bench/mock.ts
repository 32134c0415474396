/**
 * Benchmark of the data-backed mock (bounded: a few seconds per scenario), printed as one table:
 *   1. throughput and latency at 20 concurrent keep-alive connections, for a GET by id
 *      (GET /stockrecords/3/, 2023-02-10), a filtered list page
 *      (GET /subscriptions/?status=active&status=past_due&is_test=false, 2024-04-01) and a write (PATCH /tickets/7/, 2024-04-01), against
 *      the mock, a bare node:http server answering the same JSON bytes (the ceiling), and Prism's
 *      own CLI (`prism mock -p PORT -v silent generated/openapi/<version>.json`, the bundle of the
 *      scenario's version); targets: each ≥ 1.5x Prism CLI and ≥ 0.10 of bare node;
 *   2. memory: RSS of the mock's server process after 100,000 requests, half of them writes;
 *      target < 150 MB;
 *   3. startup: time from spawning `npm start` to the first answered request (median of 3);
 *      target: under 2 s.
 * The servers run in child processes; the load generator (node:http, keep-alive agent, 127.0.0.1
 * only) runs here, so servers and generator share the machine's cores as they would.
 * Usage: tsx scripts/bench/mock.ts [--seconds S] [--runs N] [--requests N]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION_HEADER } from '../../src/contract/index.ts';
import { freePort } from '../lib/net.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/tsx/dist/cli.mjs');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    runs: { type: 'string', default: '3' },
    requests: { type: 'string', default: '100000' },
  },
});
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const MEMORY_REQUESTS = Number(values.requests);
const CONNECTIONS = 20;
const PRISM = resolve(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const WARMUP_MS = 500;

const AUTH = { Authorization: 'Bearer bench' };
const TICKET_PATCH = JSON.stringify({ status: 'solved', priority: 'low' });

interface Scenario {
  label: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  version: string;
  headers: Record<string, string>;
  body?: string;
}
const SCENARIOS: Scenario[] = [
  {
    label: 'GET by id',
    method: 'GET',
    path: '/stockrecords/3/',
    version: '2023-02-10',
    headers: { ...AUTH, [VERSION_HEADER]: '2023-02-10' },
  },
  {
    label: 'filtered list page',
    method: 'GET',
    path: '/subscriptions/?status=active&status=past_due&is_test=false',
    version: '2024-04-01',
    headers: { ...AUTH, [VERSION_HEADER]: '2024-04-01' },
  },
  {
    label: 'PATCH',
    method: 'PATCH',
    path: '/tickets/7/',
    version: '2024-04-01',
    headers: {
      ...AUTH,
      [VERSION_HEADER]: '2024-04-01',
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(TICKET_PATCH)),
    },
    body: TICKET_PATCH,
  },
];

const children = new Set<ChildProcess>();
function stopAll() {
  for (const child of children) {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
    }
  }
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

/** Spawns a server in its own process group; resolves with the URL it prints. */
function spawnServer(command: string, args: string[], match: RegExp, env: Record<string, string> = {}) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const url = new Promise<string>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const found = match.exec(out);
      if (found?.[1]) done(found[1]);
    });
    child.once('exit', (code) => fail(new Error(`${command} ${args.join(' ')} exited with ${code}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise((done) => child.once('exit', done));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
    children.delete(child);
  };
  return { child, url, stop };
}

const BARE_SERVER = `
const bodies = JSON.parse(process.env.BENCH_BODIES);
const server = require('node:http').createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'GET') JSON.parse(Buffer.concat(chunks).toString() || '{}');
    const body = bodies[req.method + ' ' + req.url] ?? '{}';
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('bare on http://127.0.0.1:' + server.address().port));
`;

function once(url: string, scenario: Scenario, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(
      `${url}${scenario.path}`,
      { method: scenario.method, headers: scenario.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', fail);
    req.end(scenario.body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** `connections` workers, each sending one request after another for `seconds`. */
async function load(url: string, scenario: Scenario, connections: number, seconds = SECONDS) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const started = performance.now();
      const { status } = await once(url, scenario, agent);
      if (measuring) {
        latencies.push(performance.now() - started);
        if (status !== 200) errors++;
      }
    }
  };
  const workers = Array.from({ length: connections }, worker);
  await new Promise((done) => setTimeout(done, WARMUP_MS));
  measuring = true;
  const started = performance.now();
  await new Promise((done) => setTimeout(done, seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  stop = true;
  await Promise.all(workers);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors };
}

interface Row {
  scenario: string;
  connections: string;
  server: string;
  rps: string;
  p50: string;
  p99: string;
  note: string;
}
const rows: Row[] = [];
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

// 1. Throughput -----------------------------------------------------------------------------------
console.log(
  `Mock benchmark: ${SECONDS} s per scenario after ${WARMUP_MS} ms warm-up, ${CONNECTIONS} connections, 127.0.0.1, keep-alive`,
);
const mock = spawnServer(
  process.execPath,
  [TSX, 'src/cli/bin.ts', 'mock', '--port', '0', '--quiet'],
  /listening on (\S+)/,
);
const mockUrl = await mock.url;
const bodies: Record<string, string> = {};
for (const scenario of SCENARIOS) {
  const { status, body } = await once(mockUrl, scenario);
  if (status !== 200) throw new Error(`${scenario.label} answered ${status} on the mock: ${body}`);
  bodies[`${scenario.method} ${scenario.path}`] = body;
}
const bare = spawnServer(process.execPath, ['-e', BARE_SERVER], /bare on (\S+)/, {
  BENCH_BODIES: JSON.stringify(bodies),
});
const bareUrl = await bare.url;

/** Prism's CLI on one version bundle; it prints nothing at -v silent, so the port is polled. */
async function startPrism(version: string) {
  const port = await freePort();
  const server = spawnServer(
    process.execPath,
    [PRISM, 'mock', '-p', String(port), '-h', '127.0.0.1', '-v', 'silent', `generated/openapi/${version}.json`],
    /(?!)/,
  );
  server.url.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  const probe = SCENARIOS.find((s) => s.version === version) as Scenario;
  for (let tries = 0; ; tries++) {
    const status = await once(url, probe).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status !== 0) break;
    if (tries > 600) throw new Error(`Prism on ${version} did not start`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return { url, stop: server.stop };
}
const prisms = new Map<string, Awaited<ReturnType<typeof startPrism>>>();
for (const version of new Set(SCENARIOS.map((s) => s.version))) prisms.set(version, await startPrism(version));

// The load generator's own warm-up (its JIT), discarded: else the first scenario measured is slowed.
for (const url of [bareUrl, mockUrl]) for (const scenario of SCENARIOS) await load(url, scenario, CONNECTIONS, 0.5);

const verdicts: string[] = [];
for (const scenario of SCENARIOS) {
  const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
  const prism = prisms.get(scenario.version) as { url: string };
  for (const [server, url] of [
    ['bare node:http', bareUrl],
    [`prism CLI (${scenario.version})`, prism.url],
    ['mock', mockUrl],
  ] as const) {
    const result = await load(url, scenario, CONNECTIONS);
    results[server] = result;
    let note = result.errors ? `${result.errors} non-200` : '';
    if (server === 'mock') {
      const ceiling = results['bare node:http']?.rps ?? Number.NaN;
      const prismRps = results[`prism CLI (${scenario.version})`]?.rps ?? Number.NaN;
      const ofBare = result.rps / ceiling;
      const ofPrism = result.rps / prismRps;
      const met = ofBare >= 0.1 && ofPrism >= 1.5;
      note += `${fmt(ofBare, 2)} of bare (≥ 0.10), ${fmt(ofPrism, 1)}x Prism (≥ 1.5x): ${met ? 'met' : 'MISSED'}`;
      verdicts.push(`${scenario.label}: ${met ? 'met' : 'MISSED'}`);
    }
    rows.push({
      scenario: `${scenario.label} ${scenario.method} ${scenario.path}`,
      connections: String(CONNECTIONS),
      server,
      rps: fmt(result.rps),
      p50: `${fmt(result.p50, 2)} ms`,
      p99: `${fmt(result.p99, 2)} ms`,
      note,
    });
    process.stdout.write('.');
  }
}
await Promise.all([bare.stop(), ...[...prisms.values()].map((p) => p.stop())]);

// 2. Memory after MEMORY_REQUESTS requests, half of them writes ------------------------------------
/** RSS of the largest process of the mock's process group (the server; tsx runs it in a child). */
function rssMb(pid: number): number {
  const out = execFileSync('ps', ['-o', 'rss=', '-g', String(pid)], { encoding: 'utf8' });
  return Math.max(...out.split('\n').filter(Boolean).map(Number)) / 1024;
}
{
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const mix = [SCENARIOS[2], SCENARIOS[1], SCENARIOS[2], SCENARIOS[0]] as Scenario[];
  let sent = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent < MEMORY_REQUESTS) {
        const scenario = mix[sent++ % mix.length] as Scenario;
        if ((await once(mockUrl, scenario, agent)).status !== 200) failed++;
      }
    }),
  );
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  const rss = rssMb(mock.child.pid as number);
  rows.push({
    scenario: `memory: ${fmt(sent)} requests (50% PATCH) in ${fmt(seconds, 1)} s`,
    connections: String(CONNECTIONS),
    server: 'mock',
    rps: fmt(sent / seconds),
    p50: `${fmt(rss)} MB`,
    p99: '',
    note: `RSS after; target < 150 MB: ${rss < 150 ? 'met' : 'MISSED'}${failed ? `; ${failed} non-200` : ''}`,
  });
}
await mock.stop();
process.stdout.write('\n');

// 2. Startup --------------------------------------------------------------------------------------

async function startupOnce(command: string, args: string[]): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const server = spawnServer(command, args, /listening on (\S+)/, { PORT: String(port) });
  server.url.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`${command} exited before answering`);
    const status = await once(url, SCENARIOS[0] as Scenario).then(
      (answer) => answer.status,
      () => 0, // not listening yet
    );
    if (status === 200) break;
    await new Promise((done) => setTimeout(done, 20));
  }
  const elapsed = performance.now() - started;
  await server.stop();
  return elapsed;
}
for (const [label, command, args] of [
  ['startup: npm start → first 200', 'npm', ['start', '--silent', '--', '--quiet']],
  ['startup: tsx src/cli/bin.ts mock → first 200', process.execPath, [TSX, 'src/cli/bin.ts', 'mock', '--quiet']],
] as const) {
  const startups: number[] = [];
  for (let run = 0; run < RUNS; run++) startups.push(await startupOnce(command, [...args]));
  startups.sort((a, b) => a - b);
  const median = percentile(startups, 50);
  rows.push({
    scenario: label,
    connections: '',
    server: 'mock',
    rps: '',
    p50: `${fmt(median)} ms`,
    p99: `max ${fmt(startups.at(-1) ?? Number.NaN)} ms`,
    note: `median of ${RUNS}; target < 2 s: ${median < 2000 ? 'met' : 'MISSED'}`,
  });
}
rows.push({
  scenario: 'machine load (1-min load average, at the end)',
  connections: '',
  server: '',
  rps: '',
  p50: loadavg()[0]?.toFixed(1) ?? '',
  p99: '',
  note: `${availableParallelism()} cores`,
});

const header: Row = {
  scenario: 'scenario',
  connections: 'conns',
  server: 'server',
  rps: 'req/s',
  p50: 'p50',
  p99: 'p99',
  note: 'note',
};
const keys = Object.keys(header) as (keyof Row)[];
const widths = keys.map((key) => Math.max(...[header, ...rows].map((row) => row[key].length)));
const line = (row: Row) =>
  keys
    .map((key, i) =>
      key === 'rps' || key === 'p50' || key === 'p99'
        ? row[key].padStart(widths[i] ?? 0)
        : row[key].padEnd(widths[i] ?? 0),
    )
    .join('  ')
    .trimEnd();
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows) console.log(line(row));
