/**
 * Benchmark of the mock's durable state (issue 18), printed as one table:
 *   1. writes per second, PATCH /tickets/{1..50}/ from 20 connections (wrk with a Lua script), with
 *      `--state FILE` (every answer after its fdatasync, group commit) and without; target: at
 *      least 2,000/s with `--state`;
 *   2. restart time with a state file holding 100,000 records (200 tokens × 500 tickets, written
 *      with the journal directly): spawn to listening, and to the first read of a reloaded token;
 *   3. RSS of the mock's process while 5,000 tokens each write once (the eviction test's load),
 *      beside its RSS at start and the documented memory budget of the token states.
 * The mock runs in a child process (`node --import tsx src/cli/bin.ts mock`, one process, so /proc
 * gives its RSS); wrk and the small drivers run here, on 127.0.0.1.
 * Usage: tsx scripts/bench/state.ts [--seconds S] [--records N] [--parts writes,restart,eviction]
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createMockEngine, DEFAULT_LIMITS, openStateFile } from '../../src/mock/index.ts';
import { type BenchRow, printBenchTable } from '../lib/bench-table.ts';
import { spawnNode } from '../lib/spawn-node.ts';
import { ensureWrk, runWrk, runWrkAsync } from '../lib/wrk.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    records: { type: 'string', default: '100000' },
    parts: { type: 'string', default: 'writes,restart,eviction' },
  },
});
const SECONDS = Number(values.seconds);
const RECORDS = Number(values.records);
const dir = mkdtempSync(join(tmpdir(), 'bench-state-'));
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the mock; resolves with its URL, process and the ms from spawn to listening. */
async function startMock(args: string[]) {
  const started = performance.now();
  const mockArgs = ['--import', 'tsx', 'src/cli/bin.ts', 'mock', '--port', '0', '--quiet', ...args];
  const server = await spawnNode(mockArgs, /listening on (\S+)/, { cwd: ROOT, children });
  return { ...server, listeningMs: performance.now() - started };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

const PATCH_LUA = `
counter = 0
request = function()
  counter = counter + 1
  local body = '{"subject":"wrk ' .. counter .. '"}'
  local headers = { ["Authorization"] = "Bearer bench-writer", ["Content-Type"] = "application/json" }
  return wrk.format("PATCH", "/tickets/" .. (counter % 50 + 1) .. "/", headers, body)
end
`;

async function writes(rows: BenchRow[]): Promise<void> {
  for (const withState of [false, true]) {
    const mock = await startMock(withState ? ['--state', join(dir, 'writes.jsonl')] : []);
    runWrk(mock.url, PATCH_LUA, { seconds: 1 }); // warm-up
    const result = runWrk(mock.url, PATCH_LUA, { seconds: SECONDS });
    await mock.stop();
    rows.push({
      part: 'writes',
      measure: `PATCH/s ${withState ? 'with --state' : 'without --state'} (p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, ${result.failures} failures)`,
      value: result.requestsPerSecond.toFixed(0),
      target: withState ? '>= 2000' : '-',
    });
  }
}

/** A state file of `RECORDS` tickets: 500 per token (the per-token record limit), as the engine would write them. */
async function writeStateFile(file: string): Promise<number> {
  const template = createMockEngine().export().tickets?.[0] as Record<string, unknown>;
  const journal = await openStateFile(file);
  const perToken = DEFAULT_LIMITS.maxRecords;
  for (let first = 0; first < RECORDS; first += perToken) {
    const token = `restart-${first / perToken}`;
    const appends = [];
    for (let n = 0; n < Math.min(perToken, RECORDS - first); n++) {
      const id = 1000 + n;
      appends.push(journal.append({ op: 'put', token, changes: [['tickets', String(id), { ...template, id }]] }));
    }
    await Promise.all(appends);
  }
  await journal.close();
  return RECORDS / perToken;
}

async function restart(rows: BenchRow[]): Promise<void> {
  const file = join(dir, 'restart.jsonl');
  const tokens = await writeStateFile(file);
  const size = statSync(file).size / 1024 / 1024;
  const listening: number[] = [];
  const firstRead: number[] = [];
  for (let run = 0; run < 3; run++) {
    const mock = await startMock(['--state', file]);
    const started = performance.now();
    const answer = await fetch(`${mock.url}/tickets/1499/`, {
      headers: { Authorization: `Bearer restart-${tokens - 1}` },
    });
    if (answer.status !== 200) throw new Error(`the reloaded record answered ${answer.status}`);
    firstRead.push(mock.listeningMs + performance.now() - started);
    listening.push(mock.listeningMs);
    await mock.stop();
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[1] as number;
  const bare: number[] = [];
  for (let run = 0; run < 3; run++) {
    const mock = await startMock([]);
    bare.push(mock.listeningMs);
    await mock.stop();
  }
  rows.push(
    {
      part: 'restart',
      measure: 'spawn to listening without --state (the baseline), median of 3',
      value: `${median(bare).toFixed(0)} ms`,
      target: '-',
    },
    {
      part: 'restart',
      measure: `spawn to listening, ${RECORDS.toLocaleString('en')} records of ${tokens} tokens (${size.toFixed(0)} MB file), median of 3`,
      value: `${median(listening).toFixed(0)} ms`,
      target: '-',
    },
    {
      part: 'restart',
      measure: 'spawn to the first read of a reloaded token, median of 3',
      value: `${median(firstRead).toFixed(0)} ms`,
      target: '-',
    },
  );
}

/** 5,000 PATCHes, each under a new token (thread id and counter), then each wrk thread stops. */
const NEW_TOKEN_LUA = `
local threads = 0
setup = function(thread)
  thread:set("id", threads)
  threads = threads + 1
end
counter = 0
answered = 0
request = function()
  counter = counter + 1
  local headers = { ["Authorization"] = "Bearer evict-" .. id .. "-" .. counter, ["Content-Type"] = "application/json" }
  return wrk.format("PATCH", "/tickets/2/", headers, '{"subject":"evict"}')
end
response = function(status)
  answered = answered + 1
  if answered >= 2500 then wrk.thread:stop() end
end
`;

async function eviction(rows: BenchRow[]): Promise<void> {
  for (const withState of [false, true]) {
    const mock = await startMock(withState ? ['--state', join(dir, 'eviction.jsonl')] : []);
    const pid = mock.child.pid as number;
    const atStart = rssMb(pid);
    let peak = atStart;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 100);
    const load = runWrkAsync(mock.url, NEW_TOKEN_LUA, { threads: 2, connections: 20, seconds: 120 });
    const result = await load;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    if (result.failures > 0) throw new Error(`${result.failures} of the eviction writes failed`);
    await mock.stop();
    rows.push({
      part: 'eviction',
      measure: `RSS, 5,000 tokens writing once${withState ? ', --state' : ''} (at start ${atStart.toFixed(0)} MB; ${DEFAULT_LIMITS.maxTokenStates} states kept)`,
      value: `${peak.toFixed(0)} MB`,
      target: `< start + ${DEFAULT_LIMITS.memoryBudget / 1024 / 1024} MB budget`,
    });
  }
}

ensureWrk();
const rows: BenchRow[] = [];
const parts = new Set(values.parts.split(','));
if (parts.has('writes')) await writes(rows);
if (parts.has('restart')) await restart(rows);
if (parts.has('eviction')) await eviction(rows);
printBenchTable(
  `Durable state (load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}, shared machine)`,
  rows,
);
