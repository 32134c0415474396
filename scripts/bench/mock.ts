/**
 * Benchmark of the mock server (bounded: a few seconds per scenario), printed as one table:
 *   1. throughput and latency: requests/s, p50 and p99 for a GET (GET /store/) and a POST
 *      (POST /gift-cards/, validated body) at 10 and 50 concurrent keep-alive connections, against
 *      the mock and against a bare node:http server answering the same JSON bytes (the ceiling);
 *      target: at least 1,500 GET requests/s;
 *   2. startup: time from spawning `npm start` to the first answered request (median of 3);
 *      target: under 3 s.
 * Both servers run in child processes; the load generator (node:http, keep-alive agent, 127.0.0.1
 * only) runs here, so the servers and the generator share the machine's 2 cores as they would.
 * Usage: tsx scripts/bench/mock.ts [--seconds S] [--runs N]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION_HEADER } from '../../src/contract/index.ts';
import { freePort } from '../lib/net.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/tsx/dist/cli.mjs');
const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, runs: { type: 'string', default: '3' } },
});
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const WARMUP_MS = 500;

const HEADERS = { Authorization: 'Bearer bench', [VERSION_HEADER]: '2024-04-01' };
const GIFT_CARD = JSON.stringify({ currency: 'EUR', initial: '50.00', expired_at: '2025-12-31T23:59:59Z' });

interface Scenario {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}
const SCENARIOS: Scenario[] = [
  { label: 'GET /store/', method: 'GET', path: '/store/', headers: HEADERS },
  {
    label: 'POST /gift-cards/',
    method: 'POST',
    path: '/gift-cards/',
    headers: {
      ...HEADERS,
      [VERSION_HEADER]: '2023-02-10',
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(GIFT_CARD)),
    },
    body: GIFT_CARD,
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
    if (req.method === 'POST') JSON.parse(Buffer.concat(chunks).toString() || '{}');
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
console.log(`Mock benchmark: ${SECONDS} s per scenario after ${WARMUP_MS} ms warm-up, 127.0.0.1, keep-alive`);
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
// The load generator's own warm-up (its JIT), discarded: else the first scenario measured is slowed.
for (const url of [bareUrl, mockUrl]) for (const scenario of SCENARIOS) await load(url, scenario, 10, 0.5);

for (const scenario of SCENARIOS) {
  for (const connections of [10, 50]) {
    const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
    for (const [server, url] of [
      ['bare node:http', bareUrl],
      ['mock', mockUrl],
    ] as const) {
      const result = await load(url, scenario, connections);
      results[server] = result;
      const ceiling = results['bare node:http'];
      let note = result.errors ? `${result.errors} non-200!` : '';
      if (server === 'mock' && ceiling) {
        note += `${fmt((result.rps / ceiling.rps) * 100)}% of bare`;
        if (scenario.method === 'GET') note += `; target ≥ 1,500/s: ${result.rps >= 1500 ? 'met' : 'MISSED'}`;
      }
      rows.push({
        scenario: scenario.label,
        connections: String(connections),
        server,
        rps: fmt(result.rps),
        p50: `${fmt(result.p50, 2)} ms`,
        p99: `${fmt(result.p99, 2)} ms`,
        note,
      });
      process.stdout.write('.');
    }
  }
}
await Promise.all([mock.stop(), bare.stop()]);
process.stdout.write('\n');

// 2. Startup --------------------------------------------------------------------------------------

async function startupOnce(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const server = spawnServer('npm', ['start', '--silent', '--', '--quiet'], /listening on (\S+)/, {
    PORT: String(port),
  });
  server.url.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error('npm start exited before answering');
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
const startups: number[] = [];
for (let run = 0; run < RUNS; run++) startups.push(await startupOnce());
startups.sort((a, b) => a - b);
const median = percentile(startups, 50);
rows.push({
  scenario: 'startup: npm start → first 200',
  connections: '',
  server: 'mock',
  rps: '',
  p50: `${fmt(median)} ms`,
  p99: `max ${fmt(startups.at(-1) ?? Number.NaN)} ms`,
  note: `median of ${RUNS}; target < 3 s: ${median < 3000 ? 'met' : 'MISSED'}`,
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
