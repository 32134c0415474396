/**
 * Benchmark of the MSW handlers (`@store-admin/contract/msw`):
 *   1. size of the browser build (src/msw/browser.ts: engine, validators, bundles; msw external),
 *      minified and min+gzip, with the inputs that dominate; target < 150 KB gz;
 *   2. answer time under msw/node of a GET by id through fetch (p50/p99 over --rounds requests);
 *      target p50 < 1 ms.
 * Usage: tsx scripts/bench/msw.ts [--rounds N]
 */

import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { setupServer } from 'msw/node';
import { VERSION_HEADER } from '../../src/contract/index.ts';
import { createHandlers } from '../../src/msw/index.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2000' } } });
const ROUNDS = Number(values.rounds);
const rows: BenchRow[] = [];

// 1. Size of the browser build.
const result = await build({
  entryPoints: [new URL('../../src/msw/browser.ts', import.meta.url).pathname],
  bundle: true,
  minify: true,
  platform: 'browser',
  format: 'esm',
  external: ['msw'],
  write: false,
  metafile: true,
  logLevel: 'silent',
});
const code = result.outputFiles[0]?.contents ?? new Uint8Array();
const gz = gzipSync(code, { level: 9 }).length;
rows.push({
  part: 'size',
  measure: 'browser build (engine, ajv, bundles; msw external)',
  value: `${code.length.toLocaleString('en')} B min, ${gz.toLocaleString('en')} B min+gzip`,
  target: `< 150 KB gz: ${gz < 150 * 1024 ? 'met' : 'MISSED'}`,
});
const byInput = new Map<string, number>();
for (const [file, info] of Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {})) {
  const group =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? (file.endsWith('.json') ? 'bundles (JSON)' : 'src');
  byInput.set(group, (byInput.get(group) ?? 0) + info.bytesInOutput);
}
for (const [group, bytes] of [...byInput].sort((a, b) => b[1] - a[1]).slice(0, 5)) {
  rows.push({ part: 'size', measure: `  of which ${group}`, value: `${bytes.toLocaleString('en')} B min`, target: '' });
}

// 2. Answer time under msw/node.
const BASE = 'http://bench.test/api';
const server = setupServer(...createHandlers({ baseUrl: BASE }));
server.listen({ onUnhandledRequest: 'error' });
const headers = { Authorization: 'Bearer bench', [VERSION_HEADER]: 'unstable' };
for (let i = 0; i < 200; i++) await (await fetch(`${BASE}/tickets/7/`, { headers })).text();
const times: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const started = performance.now();
  const response = await fetch(`${BASE}/tickets/7/`, { headers });
  await response.text();
  times.push(performance.now() - started);
}
server.close();
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? Number.NaN;
rows.push({
  part: 'speed',
  measure: `GET /tickets/7/ under msw/node (${ROUNDS} requests)`,
  value: `p50 ${pct(50).toFixed(2)} ms, p99 ${pct(99).toFixed(2)} ms`,
  target: `p50 < 1 ms: ${pct(50) < 1 ? 'met' : 'MISSED'}`,
});
printBenchTable(`MSW handlers benchmark (Node ${process.versions.node})`, rows);
