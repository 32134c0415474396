/**
 * Benchmark of the validating proxy (bounded: a few seconds per run), printed as one table:
 *   1. overhead: wrk at 20 keep-alive connections against a bare node:http upstream answering a
 *      fixed, valid ticket (GET /tickets/7/, unstable), then against the `proxy` command in front of
 *      it (the built CLI, what `npx store-admin-contract proxy` runs: ../lib/built-cli.ts), and, for reference, a minimal node:http proxy that only pipes (no check, no report):
 *      what any Node proxy costs on this machine. Two loads, runs alternated, medians:
 *      - paced: each connection sends a request every PACE_MS (wrk's Lua `delay`), an offered load
 *        below what the three processes can serve on 2 cores, so the latency added is the
 *        proxy's own time per exchange; the targets are read here: p50 +1 ms, p99 +5 ms at most
 *        over the bare upstream, and p50 at most +0.3 ms over the pipe-only proxy (issue 28);
 *      - saturated: as fast as wrk can; with wrk, upstream and proxy on 2 cores, latency there is
 *        queueing (20 connections / throughput), so this row reports throughput, relative to the
 *        bare upstream and to the pipe-only proxy: target >= 0.85 of the pipe's (issue 28); beside it
 *        the CPU the proxy and the pipe spent per exchange (/proc), which a shared machine's load
 *        bends less than req/s;
 *   2. validation cost per exchange, in this process: route + request check + response check of a
 *      ticket and of a 10-record subscription page (what the proxy adds to each exchange's CPU).
 * Upstream and proxy are child processes; wrk (Debian's) is installed with apt when missing. The
 * machine's load average is printed beside the figures (before and after): on a shared machine, read
 * ratios, not ms. `--baseline BIN` adds another build of the CLI (e.g. main's dist/src/cli/bin.js) to
 * the same alternated runs, for an A/B of two versions of the proxy on the same load.
 * Usage: tsx scripts/bench/proxy.ts [--seconds S] [--runs N] [--baseline BIN]
 */
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBundles, VERSION_HEADER } from '../../src/contract/index.ts';
import { createMockEngine } from '../../src/mock/index.ts';
import { createExchangeChecker } from '../../src/proxy/index.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';
import { buildCli } from '../lib/built-cli.ts';
import { spawnNode } from '../lib/spawn-node.ts';
import { ensureWrk, headersLua, paceLua, runWrkOn } from '../lib/wrk.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    runs: { type: 'string', default: '3' },
    baseline: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const CONNECTIONS = 20;
/** Milliseconds between two requests of one connection in the paced runs: at most 1,000 req/s in all. */
const PACE_MS = 20;
const HEADERS = { Authorization: 'Bearer bench', [VERSION_HEADER]: 'unstable' };

async function answerOf(engine: ReturnType<typeof createMockEngine>, path: string, version: string): Promise<string> {
  const response = await engine.handle(
    new Request(`http://bench.test${path}`, { headers: { ...HEADERS, [VERSION_HEADER]: version } }),
  );
  return response.text();
}

const BARE_SERVER = `
const body = process.env.BODY;
require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), '${VERSION_HEADER}': 'unstable' });
    response.end(body);
  });
}).listen(0, '127.0.0.1', function () { console.log('ready on http://127.0.0.1:' + this.address().port); });`;

/** The reference: forwards and pipes back, nothing else. */
const PIPE_PROXY = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true });
http.createServer((request, response) => {
  const upstream = http.request({ hostname: '127.0.0.1', port: Number(process.env.UPSTREAM), path: request.url,
    method: request.method, headers: request.headers, agent }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  request.pipe(upstream);
}).listen(0, '127.0.0.1', function () { console.log('ready on http://127.0.0.1:' + this.address().port); });`;

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A node process printing its URL (../lib/spawn-node.ts), one of this script's children. */
const startChild = (args: string[], env: Record<string, string> = {}) =>
  spawnNode(args, /(?:ready|listening) on (http:\/\/[\w.:[\]-]+)/, { cwd: ROOT, children, env });

interface Latency {
  rps: number;
  p50: number;
  p99: number;
  /** CPU µs the server process spent per request (user + system): what the machine's load bends least. */
  cpu: number;
}

/** One wrk run (2 threads, CONNECTIONS connections) against `server`, paced by `paceMs` when given; every answer must be a 2xx. */
function wrk(server: Server, target: string, seconds: number, paceMs?: number): Latency {
  const lua = `${headersLua(HEADERS)}${paceMs === undefined ? '' : paceLua(paceMs)}`;
  const url = `${server.url}${target}`;
  const result = runWrkOn(server.pid, url, lua, { threads: 2, connections: CONNECTIONS, seconds });
  if (result.failures) throw new Error(`${result.failures} failed responses from ${url}`);
  return { rps: result.requestsPerSecond, p50: result.p50Ms, p99: result.p99Ms, cpu: result.cpuPerRequest };
}

const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)} ms`;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

const latency = (list: Latency[]) => ({
  p50: median(list.map((r) => r.p50)),
  p99: median(list.map((r) => r.p99)),
  rps: median(list.map((r) => r.rps)),
  cpu: median(list.map((r) => r.cpu)),
});

async function overhead(ticket: string): Promise<BenchRow[]> {
  const upstream = await startChild(['-e', BARE_SERVER], { BODY: ticket });
  // The built CLI, what `npx store-admin-contract proxy` runs (the proxy is the package's command).
  const cli = buildCli(ROOT);
  const proxy = await startChild([cli.bin, 'proxy', '--upstream', upstream.url, '--port', '0', '--quiet']);
  const pipe = await startChild(['-e', PIPE_PROXY], { UPSTREAM: String(new URL(upstream.url).port) });
  const baseline = values.baseline
    ? await startChild([resolve(values.baseline), 'proxy', '--upstream', upstream.url, '--port', '0', '--quiet'])
    : undefined;
  const target = '/tickets/7/';
  const servers: Servers = { bare: upstream, proxy, pipe, ...(baseline && { baseline }) };
  try {
    for (const server of Object.values(servers)) wrk(server, target, 1); // warm-up
    const part = `GET ${target} (unstable), ${CONNECTIONS} conn`;
    return [...compare(servers, target, `${part}, paced`, PACE_MS), ...compare(servers, target, `${part}, saturated`)];
  } finally {
    await Promise.all([proxy.stop(), pipe.stop(), upstream.stop(), baseline?.stop()]);
    cli.remove();
  }
}

/** p50 / p99 and req/s, as a cell. */
const pair = (r: { p50: number; p99: number; rps: number }) =>
  `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} ms, ${r.rps.toFixed(0)} req/s`;

type Server = { url: string; pid: number };
type Servers = Record<'bare' | 'proxy' | 'pipe', Server> & { baseline?: Server };

/**
 * The servers measured in turn (RUNS times), the proxy's and the pipe's figures against the bare
 * upstream's (and, with `--baseline`, the proxy's against the baseline build's).
 */
function compare(servers: Servers, target: string, part: string, paceMs?: number) {
  const results: Record<string, Latency[]> = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const [name, server] of Object.entries(servers)) results[name]?.push(wrk(server, target, SECONDS, paceMs));
  }
  const [bare, proxied, piped] = [
    latency(results.bare ?? []),
    latency(results.proxy ?? []),
    latency(results.pipe ?? []),
  ];
  const row = (measure: string, value: string, goal = '') => ({ part, measure, value, target: goal });
  const added = (r: typeof bare) => `${signed(r.p50 - bare.p50)} / ${signed(r.p99 - bare.p99)}`;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const paced = paceMs !== undefined;
  const nearPipe = paced ? proxied.p50 - piped.p50 <= 0.3 : proxied.rps / piped.rps >= 0.85;
  return [
    row('bare upstream p50 / p99', pair(bare)),
    row('through the proxy p50 / p99', pair(proxied)),
    row(
      'proxy: added p50 / p99',
      added(proxied),
      paced
        ? `<= +1 / +5 ms: ${verdict(proxied.p50 - bare.p50 <= 1 && proxied.p99 - bare.p99 <= 5)}`
        : `${(proxied.rps / bare.rps).toFixed(2)} of bare's req/s, ${(proxied.rps / piped.rps).toFixed(2)} of the pipe's`,
    ),
    row(
      'proxy against the pipe-only proxy',
      paced
        ? `p50 ${signed(proxied.p50 - piped.p50)}, p99 ${signed(proxied.p99 - piped.p99)}`
        : `${(proxied.rps / piped.rps).toFixed(2)} of its req/s`,
      `${paced ? 'p50 <= +0.3 ms' : '>= 0.85'}: ${verdict(nearPipe)}`,
    ),
    row(
      'CPU per exchange: proxy / pipe-only proxy',
      `${proxied.cpu.toFixed(0)} / ${piped.cpu.toFixed(0)} µs (${(piped.cpu / proxied.cpu).toFixed(2)})`,
    ),
    row('reference: pipe-only proxy p50 / p99', pair(piped)),
    row('reference: pipe-only added p50 / p99', added(piped)),
    ...(results.baseline
      ? againstBaseline(latency(results.baseline), proxied, piped, paced).map((r) => ({ part, ...r }))
      : []),
  ];
}

/** The `--baseline` build's figures, and the proxy's against them, in the rows' terms. */
function againstBaseline(
  baseline: ReturnType<typeof latency>,
  proxied: typeof baseline,
  piped: typeof baseline,
  paced: boolean,
) {
  return [
    { measure: 'baseline build p50 / p99', value: `${pair(baseline)}, ${baseline.cpu.toFixed(0)} µs CPU`, target: '' },
    {
      measure: 'proxy against the baseline build',
      value: paced
        ? `p50 ${signed(proxied.p50 - baseline.p50)}, p99 ${signed(proxied.p99 - baseline.p99)}`
        : `${(proxied.rps / baseline.rps).toFixed(2)} of its req/s (baseline: ${(baseline.rps / piped.rps).toFixed(2)} of the pipe's)`,
      target: '',
    },
  ];
}

function validationCost(
  label: string,
  checker: ReturnType<typeof createExchangeChecker>,
  path: string,
  version: string,
  body: string,
): BenchRow {
  const url = new URL(`http://bench.test${path}`);
  const bytes = Buffer.from(body);
  const exchange = () => {
    const route = checker.route('GET', url.pathname, version);
    if (route.kind !== 'matched') throw new Error(`${path} does not route`);
    checker.checkRequest(route.target, url.pathname, url.searchParams, new Uint8Array());
    if (checker.checkResponse(route.target, 200, 'application/json', bytes).violations.length > 0)
      throw new Error(`${path}: invalid`);
  };
  for (let i = 0; i < 500; i++) exchange(); // compile and warm up
  const iterations = 5000;
  const started = performance.now();
  for (let i = 0; i < iterations; i++) exchange();
  const us = ((performance.now() - started) / iterations) * 1000;
  return { part: 'validation per exchange', measure: label, value: `${us.toFixed(0)} µs`, target: '' };
}

ensureWrk();
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const engine = createMockEngine();
const ticket = await answerOf(engine, '/tickets/7/', 'unstable');
const page = await answerOf(engine, '/subscriptions/?status=active', '2024-04-01');
const checker = createExchangeChecker(loadBundles());
const rows = [
  validationCost(`ticket (${ticket.length} B)`, checker, '/tickets/7/', 'unstable', ticket),
  validationCost(`subscription page (${page.length} B)`, checker, '/subscriptions/?status=active', '2024-04-01', page),
  ...(await overhead(ticket)),
];
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
printBenchTable(
  `Proxy benchmark (Node ${process.versions.node}, wrk, median of ${RUNS} runs of ${SECONDS} s; load average ${loadBefore} before, ${load} after)`,
  rows,
);
