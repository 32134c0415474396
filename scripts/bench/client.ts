/**
 * Benchmarks of the typed client, printed as one table (bounded to a few seconds per part):
 *   1. overhead: `client.GET` vs plain `fetch` (same headers, JSON parsed) against one local
 *      node:http server in a child process, single calls alternating so that every side shares
 *      the machine's load (openapi-fetch alone shown for reference); target within 10% of fetch.
 *      Also the CPU cost per call with a canned response (no network);
 *   2. size: min+gzip bytes of src/client/index.ts bundled with its dependencies (esbuild); target < 6 KB;
 *   3. type cost: `tsc --noEmit --extendedDiagnostics` on a generated consumer with one call of each
 *      helper (GET, POST, paginate, pages, unwrap, withVersion) next to a consumer that only creates
 *      a client (target: under 1 s more check time), and on a consumer calling every operation
 *      (test/client/fixtures/every-operation.ts). Best of three runs each (the machine is shared).
 * Usage: tsx scripts/bench/client.ts [--rounds N]
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import createClient from 'openapi-fetch';
import { createAdminClient, VERSION_HEADER } from '../../src/client/index.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2000' } } });
const ROUNDS = Number(values.rounds);

const rows: BenchRow[] = [];

// 1. Overhead ------------------------------------------------------------------------------------
const SERVER = `
const body = JSON.stringify([{ name: 'Shop', primary_domain: 'shop.example.com', timezone: 'Europe/Berlin',
  available_currencies: [{ code: 'EUR', label: 'Euro' }] }]);
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body));
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((done, fail) => {
    child.stdout.once('data', (chunk: Buffer) => done(chunk.toString().trim()));
    child.once('exit', (code) => fail(new Error(`bench server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** Calls each variant once per round (the order reversing every round) and times each call. */
async function interleaved(variants: (() => Promise<unknown>)[], rounds: number): Promise<Summary[]> {
  const times = variants.map((): number[] => []);
  const order = variants.map((_, i) => i);
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 ? [...order].reverse() : order) {
      const started = performance.now();
      await variants[i]?.();
      times[i]?.push((performance.now() - started) * 1000);
    }
  }
  return times.map(summary);
}

interface Summary {
  median: number;
  /** Mean of the middle 80% (the machine is shared: spikes are dropped). */
  trimmed: number;
}
function summary(samples: number[]): Summary {
  const sorted = [...samples].sort((x, y) => x - y);
  const cut = Math.floor(sorted.length / 10);
  const middle = sorted.slice(cut, sorted.length - cut);
  return {
    median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    trimmed: middle.reduce((sum, x) => sum + x, 0) / middle.length,
  };
}

const percent = (a: number, b: number) => `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)}%`;

async function overhead() {
  const headers = { Authorization: 'Bearer bench-token', [VERSION_HEADER]: '2024-04-01' };
  const server = await startServer();
  try {
    const url = `${server.url}/store/`;
    const plain = async () => (await fetch(url, { headers })).json();
    const bare = createClient<object>({ baseUrl: server.url, headers });
    const openapiFetch = () => bare.GET('/store/' as never);
    // openapi-fetch with one option of the call (here `headers`): any per-call option costs openapi-fetch
    // a few µs more, and a real call nearly always has one (`params`, `body`); the client always has two.
    const unheaded = createClient<object>({ baseUrl: server.url });
    const openapiFetchOption = () => unheaded.GET('/store/' as never, { headers } as never);
    const client = createAdminClient({ baseUrl: server.url, token: 'bench-token' });
    const typed = () => client.GET('/store/');
    const variants = [plain, openapiFetch, openapiFetchOption, typed];
    await interleaved(variants, 300); // warm up every path and the keep-alive pool
    const [f, o, w, c] = (await interleaved(variants, ROUNDS)) as [Summary, Summary, Summary, Summary];
    const speed = (s: Summary) =>
      `${(1e6 / s.trimmed).toFixed(0)} req/s, ${s.trimmed.toFixed(0)} µs/req (median ${s.median.toFixed(0)})`;
    rows.push(
      {
        part: 'overhead',
        measure: `plain fetch (${ROUNDS} × GET /store/ each, interleaved)`,
        value: speed(f),
        target: '',
      },
      { part: 'overhead', measure: 'openapi-fetch alone (same run, for reference)', value: speed(o), target: '' },
      {
        part: 'overhead',
        measure: 'openapi-fetch alone, headers given per call (same run)',
        value: speed(w),
        target: '',
      },
      { part: 'overhead', measure: 'client.GET (same run)', value: speed(c), target: '' },
      {
        part: 'overhead',
        measure: 'client.GET vs plain fetch',
        value: `${percent(f.trimmed, c.trimmed)} time per request (median ${percent(f.median, c.median)})`,
        target: `within 10%: ${c.trimmed <= f.trimmed * 1.1 ? 'met' : 'MISSED'}`,
      },
      {
        part: 'overhead',
        measure: 'client.GET vs openapi-fetch alone',
        value: `${percent(o.trimmed, c.trimmed)} time per request (median ${percent(o.median, c.median)})`,
        target: '',
      },
      {
        part: 'overhead',
        measure: 'openapi-fetch alone vs plain fetch',
        value: `${percent(f.trimmed, o.trimmed)} time per request (median ${percent(f.median, o.median)})`,
        target: '',
      },
      {
        part: 'overhead',
        measure: 'client.GET vs openapi-fetch with a per-call option',
        value: `${percent(w.trimmed, c.trimmed)} time per request (median ${percent(w.median, c.median)})`,
        target: '',
      },
    );
  } finally {
    server.stop();
  }
  // The client's own CPU cost, without the network: every side gets the same canned response.
  const body = '[{"name":"Shop"}]';
  const canned = async (_: Request) =>
    new Response(body, { headers: { 'Content-Type': 'application/json', 'Content-Length': `${body.length}` } });
  const request = async () => (await canned(new Request('http://bench.invalid/store/', { headers }))).json();
  const bare = createClient<object>({ baseUrl: 'http://bench.invalid', headers, fetch: canned });
  const stubbed = createAdminClient({ baseUrl: 'http://bench.invalid', token: 'bench-token', fetch: canned });
  const variants = [request, () => bare.GET('/store/' as never), () => stubbed.GET('/store/')];
  await interleaved(variants, 2000);
  const [r, o, t] = (await interleaved(variants, ROUNDS * 4)) as [Summary, Summary, Summary];
  rows.push({
    part: 'overhead',
    measure: 'CPU per call, canned response: Request+json / openapi-fetch / client',
    value: `${r.trimmed.toFixed(1)} / ${o.trimmed.toFixed(1)} / ${t.trimmed.toFixed(1)} µs (client +${(t.trimmed - o.trimmed).toFixed(1)} µs)`,
    target: '',
  });
}

// 2. Size ----------------------------------------------------------------------------------------
async function bundleSize(label: string, contents: string, resolveDir: string) {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { label, min: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

async function size() {
  const entry = await bundleSize(
    'client entry (src/client/index.ts + openapi-fetch)',
    "export * from './src/client/index.ts';",
    ROOT,
  );
  const base = await bundleSize('openapi-fetch alone', "export { default } from 'openapi-fetch';", ROOT);
  rows.push(
    {
      part: 'size',
      measure: entry.label,
      value: `${entry.min.toLocaleString('en')} B min, ${entry.gzip.toLocaleString('en')} B min+gzip`,
      target: `< 6 KB (6,144 B): ${entry.gzip < 6144 ? 'met' : 'MISSED'}`,
    },
    {
      part: 'size',
      measure: base.label,
      value: `${base.min.toLocaleString('en')} B min, ${base.gzip.toLocaleString('en')} B min+gzip`,
      target: '',
    },
    {
      part: 'size',
      measure: 'added by the client',
      value: `${(entry.gzip - base.gzip).toLocaleString('en')} B min+gzip`,
      target: '',
    },
  );
}

// 3. Type cost -----------------------------------------------------------------------------------
/** A consumer that only creates a client (the baseline: the client's own files and the types). */
const EMPTY_CONSUMER = `import { type AdminClient, type AdminPaths, createAdminClient } from '../../src/client/index.ts';
export const client: AdminClient<AdminPaths> = createAdminClient({ baseUrl: 'http://x', token: 't' });
`;
/** The same, with one call of each helper. */
const HELPERS_CONSUMER = `import { type AdminClient, type AdminPaths, createAdminClient, paginate, unwrap } from '../../src/client/index.ts';
export const client: AdminClient<AdminPaths> = createAdminClient({ baseUrl: 'http://x', token: 't' });
export async function main() {
  const list = await client.GET('/subscriptions/', { params: { query: { status: ['active'] } } });
  const card = await client.POST('/gift-cards/', { body: { currency: 'EUR', initial: '10.00' } });
  for await (const subscription of paginate(client, '/subscriptions/', { maxPages: 10 })) console.log(subscription.id);
  for await (const page of paginate(client, '/fulfillment-orders/').pages()) console.log(page.results?.length);
  const old = client.withVersion('2023-02-10');
  const page = unwrap(await old.GET('/subscriptions/'));
  return [unwrap(list).results?.[0]?.lines, card.data?.code, page.next];
}
`;

interface TypeCost {
  seconds: number;
  instantiations: number;
  types: number;
}

async function typeCost() {
  const dir = join(ROOT, '.tmp', 'bench-types');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'imports-only.ts'), EMPTY_CONSUMER);
  await writeFile(join(dir, 'helpers.ts'), HELPERS_CONSUMER);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const once = async (file: string): Promise<TypeCost> => {
    const args = [tsc, '--noEmit', '--extendedDiagnostics', '--strict', '--skipLibCheck', '--target', 'es2022'];
    args.push(
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--allowImportingTsExtensions',
      '--types',
      'node',
    );
    const { stdout } = await promisify(execFile)(process.execPath, [...args, file], { cwd: ROOT });
    const read = (name: string) =>
      Number.parseFloat(stdout.match(new RegExp(`^${name}:\\s+([\\d.]+)`, 'm'))?.[1] ?? 'NaN');
    return { seconds: read('Check time'), instantiations: read('Instantiations'), types: read('Types') };
  };
  /**
   * Best of three runs each, the files taking turns: on a shared machine the fastest run is the one
   * least slowed by others, and taking turns exposes each file to the same load. Instantiations do
   * not depend on the load.
   */
  const files = [
    join(dir, 'imports-only.ts'),
    join(dir, 'helpers.ts'),
    join(ROOT, 'test/client/fixtures/every-operation.ts'),
  ];
  const best: TypeCost[] = [];
  for (let run = 0; run < 3; run++) {
    for (const [i, file] of files.entries()) {
      const cost = await once(file);
      if (!best[i] || cost.seconds < (best[i]?.seconds ?? Number.POSITIVE_INFINITY)) best[i] = cost;
    }
  }
  const [base, helpers, every] = best as [TypeCost, TypeCost, TypeCost];
  const text = (cost: TypeCost) =>
    `check ${cost.seconds.toFixed(2)} s, ${cost.instantiations.toLocaleString('en')} instantiations, ${cost.types.toLocaleString('en')} types`;
  const extra = helpers.seconds - base.seconds;
  rows.push(
    { part: 'type cost', measure: 'consumer creating a client only', value: text(base), target: '' },
    {
      part: 'type cost',
      measure: 'consumer with one GET, POST, paginate, pages, unwrap, withVersion',
      value: text(helpers),
      target: '',
    },
    {
      part: 'type cost',
      measure: '  added by those six calls',
      value: `${extra >= 0 ? '+' : ''}${extra.toFixed(2)} s, +${(helpers.instantiations - base.instantiations).toLocaleString('en')} instantiations`,
      target: `< 1 s: ${extra < 1 ? 'met' : 'MISSED'}`,
    },
    { part: 'type cost', measure: 'consumer calling all 19 operations', value: text(every), target: '' },
  );
}

await overhead();
await size();
await typeCost();

printBenchTable(`Typed client benchmark (Node ${process.versions.node})`, rows);
