/**
 * Benchmark of the hostile-input guards (#13), printed as one table:
 *   1. the 18-line YAML alias bomb (test/hostile/fixtures.ts) as an example of a scratch copy of
 *      openapi/: `scripts/build.ts` from spawn to its refusal (process start-up included), and the
 *      source guard alone, in-process; target: under 2 s. Before the guard: Redocly expanded the
 *      aliases and ran out of heap after ~58 s (exit 1).
 *   2. the breaking-change guard on a `$ref` graph two ways wide per level (2^depth paths), depth
 *      20 and 24, its leaf changed: `compareDocuments` in-process and `scripts/diff.ts` on a scratch
 *      git repository (process start-up included); target: under 1 s in-process. Before the memo:
 *      36 s at depth 20 with no change, and a RangeError crash (exit 1) at depth 16 and over with
 *      the leaf changed.
 * Usage: tsx scripts/bench/hostile.ts [--runs N]   (median of N runs, default 3)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareDocuments } from '../../src/guard/index.ts';
import {
  BOMB_YAML,
  branchingBundle,
  removeDir,
  runScript,
  STORE_EXAMPLE,
  scratchDiffRepo,
  scratchSource,
} from '../../test/hostile/fixtures.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';
import { checkSources } from '../lib/source-guard.ts';

const ROOT = join(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Math.max(1, Number(values.runs));

const rows: BenchRow[] = [];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

// 1. The alias bomb.
const source = await scratchSource();
try {
  await writeFile(join(source, STORE_EXAMPLE), BOMB_YAML);
  const builds: number[] = [];
  const codes = new Set<number | null>();
  for (let i = 0; i < RUNS; i++) {
    const run = await runScript('scripts/build.ts', ['--out', join(source, 'generated')], source);
    builds.push(run.ms);
    codes.add(run.code);
  }
  rows.push({
    part: 'alias bomb',
    measure: `npm run build, to its refusal (exit ${[...codes].join('/')})`,
    value: ms(median(builds)),
    target: '< 2000 ms',
  });
  const guards: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    guards.push(
      await timed(() =>
        checkSources([join(source, 'openapi/versions/2024-04-01.yaml')], { sourceDir: join(source, 'openapi') }).catch(
          () => undefined,
        ),
      ),
    );
  }
  rows.push({ part: 'alias bomb', measure: 'source guard alone (in-process)', value: ms(median(guards)), target: '' });
} finally {
  await removeDir(source);
}

// 2. The branching $ref graph.
const bundle = JSON.parse(await readFile(join(ROOT, 'generated/openapi/2024-04-01.json'), 'utf8'));
const BEFORE = { type: ['string', 'null'] };
const AFTER = { type: 'integer' };
for (const depth of [20, 24]) {
  const base = branchingBundle(bundle, depth, BEFORE);
  const head = branchingBundle(bundle, depth, AFTER);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(() => compareDocuments(base, head)));
  rows.push({
    part: `branching $refs, depth ${depth}`,
    measure: `compareDocuments (2^${depth} paths, leaf changed)`,
    value: ms(median(times)),
    target: '< 1000 ms',
  });
  const repo = await scratchDiffRepo(
    (b, version) => (version === '2024-04-01' ? branchingBundle(b, depth, BEFORE) : b),
    (b, version) => (version === '2024-04-01' ? branchingBundle(b, depth, AFTER) : b),
  );
  try {
    const runs: number[] = [];
    const codes = new Set<number | null>();
    for (let i = 0; i < RUNS; i++) {
      const run = await runScript('scripts/diff.ts', ['--base', 'HEAD', '--dir', repo], repo);
      runs.push(run.ms);
      codes.add(run.code);
    }
    rows.push({
      part: `branching $refs, depth ${depth}`,
      measure: `npm run diff (exit ${[...codes].join('/')}: breaking)`,
      value: ms(median(runs)),
      target: '',
    });
  } finally {
    await removeDir(repo);
  }
}

printBenchTable(`Hostile-input benchmark (Node ${process.versions.node}, median of ${RUNS})`, rows);
