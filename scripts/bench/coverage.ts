/**
 * The coverage recorder's cost per request (issue 30): the engine answering in process
 * (`handleRaw`, no HTTP, no Fetch objects) a filtered list page, a read by key and a 404, in µs per
 * request of CPU time. First in one process: an engine recording (the default) and one with `coverage: false`,
 * their batches alternating `--rounds` times, so that the load of a shared machine weighs on both
 * alike (the figure to trust). Then, with `--before DIR`, this checkout against another checkout of
 * the package (e.g. the commit before the recorder: `git archive <sha> | tar -x -C DIR`, its
 * node_modules linked), each in a process of its own, alternating: under load that comparison is
 * far noisier. The medians, their difference and ratio and the load average are printed.
 *
 *   node --import tsx scripts/bench/coverage.ts [--rounds 9] [--requests 20000] [--before DIR]
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { MockEngine, RawRequest } from '../../src/mock/index.ts';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
};
const ROUNDS = Number(arg('rounds', '9'));
const REQUESTS = Number(arg('requests', '20000'));
const HERE = resolve(import.meta.dirname, '..', '..');

const CASES: Record<string, string> = {
  'list, 2 filters': '/subscriptions/?status=active,past_due&card_type=visa',
  'read by key': '/stockrecords/7/',
  '404 (no such key)': '/stockrecords/999999/',
};

function rawOf(target: string): RawRequest {
  const headers: Record<string, string> = { authorization: 'Bearer bench', host: 'bench.test' };
  return {
    method: 'GET',
    target,
    origin: 'http://bench.test',
    header: (name) => headers[name],
    readBody: () => new Uint8Array(),
  };
}

/**
 * CPU µs (user + system, of this process) per request of `count` requests of `raw`, each answered
 * at once (reads wait for nothing): on a shared machine the wall clock also counts the time other
 * processes hold the cores, the CPU time does not.
 */
function timeOf(engine: MockEngine, raw: RawRequest, count: number): number {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) engine.handleRaw(raw);
  const { user, system } = process.cpuUsage(started);
  return (user + system) / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** In a child: one checkout's µs per request by case, as one JSON line. */
async function child(root: string): Promise<void> {
  const mock = (await import(join(root, 'src', 'mock', 'index.ts'))) as typeof import('../../src/mock/index.ts');
  const engine = mock.createMockEngine();
  const raws = Object.entries(CASES).map(([name, target]) => [name, rawOf(target)] as const);
  for (const [, raw] of raws) timeOf(engine, raw, 5000);
  const result: Record<string, number> = {};
  for (const [name, raw] of raws)
    result[name] = median(Array.from({ length: 5 }, () => timeOf(engine, raw, REQUESTS / 5)));
  console.log(JSON.stringify(result));
}

function measure(root: string): Record<string, number> {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--child', root, '--requests', String(REQUESTS)],
    {
      cwd: HERE,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
}

/** One process, two engines of this checkout: recording and not, batches alternating. */
async function onOff(): Promise<void> {
  const { createMockEngine } = await import('../../src/mock/index.ts');
  const engines = { on: createMockEngine(), off: createMockEngine({ coverage: false }) };
  const raws = Object.entries(CASES).map(([name, target]) => [name, rawOf(target)] as const);
  for (const engine of Object.values(engines)) for (const [, raw] of raws) timeOf(engine, raw, 5000);
  const times: Record<string, { on: number[]; off: number[] }> = {};
  const load = [loadavg()[0] ?? 0];
  for (let round = 0; round < ROUNDS * 2; round++) {
    for (const [name, raw] of raws) {
      times[name] ??= { on: [], off: [] };
      // Which goes first alternates too.
      for (const which of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const))
        times[name][which].push(timeOf(engines[which], raw, REQUESTS / 2));
    }
  }
  load.push(loadavg()[0] ?? 0);
  console.log(
    `In one process, load average ${load.map((l) => l.toFixed(2)).join(' → ')}; ${ROUNDS * 2} batches of ${REQUESTS / 2} requests a case and engine`,
  );
  for (const [name, { on, off }] of Object.entries(times)) {
    const [a, b] = [median(on), median(off)];
    console.log(
      `${name.padEnd(20)} recording ${a.toFixed(2)} µs  not ${b.toFixed(2)} µs  Δ ${(a - b).toFixed(2)} µs (×${(a / b).toFixed(3)})`,
    );
  }
  console.log(`(recorded ${engines.on.coverage().requests} requests; the other ${engines.off.coverage().requests})`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--child')) return child(arg('child', HERE));
  await onOff();
  if (!process.argv.includes('--before')) return;
  const before = resolve(arg('before', ''));
  const runs: { after: Record<string, number>[]; before: Record<string, number>[] } = { after: [], before: [] };
  const load = [loadavg()[0] ?? 0];
  for (let round = 0; round < ROUNDS; round++) {
    runs.after.push(measure(HERE));
    runs.before.push(measure(before));
  }
  load.push(loadavg()[0] ?? 0);
  console.log(
    `A process per checkout, load average ${load.map((l) => l.toFixed(2)).join(' → ')}; ${ROUNDS} rounds, ${REQUESTS} requests a case`,
  );
  for (const name of Object.keys(CASES)) {
    const after = median(runs.after.map((r) => r[name] ?? Number.NaN));
    const was = median(runs.before.map((r) => r[name] ?? Number.NaN));
    console.log(
      `${name.padEnd(20)} this ${after.toFixed(2)} µs  before ${was.toFixed(2)} µs  Δ ${(after - was).toFixed(2)} µs (×${(after / was).toFixed(3)})`,
    );
  }
}

await main();
