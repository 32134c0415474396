/**
 * Store benchmark (issue #17, `npm run bench`): the mock's store under growth.
 *
 * 1. Creates: `--creates N` (default 200,000) `POST /gift-cards/` under one token over HTTP (4
 *    keep-alive clients, the token's limits raised to hold them all), the rate of the first and
 *    the last 10,000 (target: last ≥ 0.8 × first); meanwhile another token reads a ticket in a loop,
 *    its GET p99 (target < 20 ms).
 * 2. Memory: `--tokens N` (default 1,000) token states each filled to its default limit (pages
 *    written until the state's byte limit refuses more), then the process RSS (target < 1 GB). In
 *    a process of its own (this script with `--memory-only`): RSS is a high-water mark, and the
 *    200,000 creates before would count in it.
 *
 * In-process server and clients share one event loop: the GET latency includes waiting behind the
 * creates, which is what a second user of one mock sees. Report the load average beside the figures.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { DEFAULT_LIMITS, startMock } from '../../src/mock/index.ts';
import { printBenchTable } from '../lib/bench-table.ts';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const CREATES = arg('creates', 200_000);
const TOKENS = arg('tokens', 1000);
const WINDOW = Math.min(10_000, Math.floor(CREATES / 4));

async function creates() {
  const mock = await startMock({ port: 0, limits: { maxRecords: CREATES + 10, maxStateBytes: 2 ** 40 } });
  const writer = { Authorization: 'Bearer creator', 'Content-Type': 'application/json' };
  const body = JSON.stringify({ currency: 'EUR', initial: '25.00' });
  const stamps: number[] = [];
  let next = 0;
  let failed = 0;
  const client = async () => {
    while (next < CREATES) {
      next += 1;
      const response = await fetch(`${mock.url}/gift-cards/`, { method: 'POST', headers: writer, body });
      await response.arrayBuffer();
      if (response.status !== 200) failed += 1;
      stamps.push(performance.now());
    }
  };
  const latencies: number[] = [];
  let done = false;
  const reader = async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${mock.url}/tickets/1042/`, { headers: { Authorization: 'Bearer reader' } });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const reading = reader();
  const started = performance.now();
  await Promise.all([client(), client(), client(), client()]);
  done = true;
  await reading;
  await mock.close();
  const rate = (from: number, to: number) =>
    WINDOW / (((stamps[to] ?? 0) - (from === 0 ? started : (stamps[from] ?? 0))) / 1000);
  const first = rate(0, WINDOW - 1);
  const last = rate(stamps.length - WINDOW - 1, stamps.length - 1);
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
  return { first, last, p99, failed, reads: latencies.length };
}

async function memory() {
  const mock = await startMock({ port: 0 });
  const engine = mock.engine;
  if (!engine) throw new Error('no engine');
  const content = 'x'.repeat(48 * 1024);
  let refused = 0;
  for (let t = 0; t < TOKENS; t++) {
    const headers = { Authorization: `Bearer filler-${t}`, 'Content-Type': 'application/json' };
    for (let page = 1; ; page++) {
      const body = JSON.stringify({ title: `Page ${page}`, content });
      const response = await engine.handle(new Request(`http://mock/pages/${page}/`, { method: 'PUT', headers, body }));
      await response.arrayBuffer();
      if (response.status !== 200) {
        refused += 1;
        break;
      }
    }
  }
  (globalThis as { gc?: () => void }).gc?.();
  const rss = process.memoryUsage().rss;
  await mock.close();
  return { rss, refused };
}

/** The memory part in a fresh process (the same script, `--memory-only`), its one JSON line read back. */
function memoryInItsOwnProcess(): { rss: number; refused: number } {
  const args = [
    '--expose-gc',
    '--import',
    'tsx',
    process.argv[1] as string,
    '--memory-only',
    '--tokens',
    String(TOKENS),
  ];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

if (process.argv.includes('--memory-only')) {
  console.log(JSON.stringify(await memory()));
  process.exit(0);
}
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const c = await creates();
const m = memoryInItsOwnProcess();
printBenchTable(
  `Store benchmark (load average before: ${load}; after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
  [
    {
      part: 'creates',
      measure: `${CREATES} POST /gift-cards/ (one token), first ${WINDOW}`,
      value: `${c.first.toFixed(0)}/s`,
      target: '',
    },
    {
      part: 'creates',
      measure: `last ${WINDOW}`,
      value: `${c.last.toFixed(0)}/s (${(c.last / c.first).toFixed(2)} × first)`,
      target: '≥ 0.8 × first',
    },
    { part: 'creates', measure: 'refused', value: String(c.failed), target: '0' },
    {
      part: 'reads',
      measure: `another token's GET /tickets/1042/ p99 (${c.reads} reads)`,
      value: `${c.p99.toFixed(1)} ms`,
      target: '< 20 ms',
    },
    {
      part: 'memory',
      measure: `RSS, ${TOKENS} token states at their limit (${DEFAULT_LIMITS.maxStateBytes} B each; ${m.refused} refused at it)`,
      value: `${(m.rss / 2 ** 20).toFixed(0)} MiB`,
      target: '< 1024 MiB',
    },
  ],
);
