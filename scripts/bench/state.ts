/**
 * Benchmark of the mock's durable state (issue 18), printed as one table:
 *   1. writes per second, PATCH /tickets/{1..50}/ from 20 connections (wrk with a Lua script), with
 *      `--state FILE` (every answer after its fdatasync, group commit) and without; target: at
 *      least 2,000/s with `--state`;
 *   2. restart time with a state file holding 100,000 records (200 tokens × 500 tickets, written
 *      with the journal directly): spawn to listening, and to the first read of a reloaded token;
 *   3. RSS of the mock's process while 5,000 tokens each write once (the eviction test's load),
 *      beside its RSS at start and the documented memory budget of the token states;
 *   4. compaction beside the answers (issue 31): 4,000 tokens write (the file grows past the
 *      compaction threshold), every state is reset, the 4,000 write again; a reader GETs all along:
 *      the worst GET and the worst write, and the compactions seen (the file's inode changing).
 * The mock runs in a child process (`node --import tsx src/cli/bin.ts mock`, one process, so /proc
 * gives its RSS); wrk and the small drivers run here, on 127.0.0.1.
 * Usage: tsx scripts/bench/state.ts [--seconds S] [--records N] [--parts writes,restart,eviction,compaction]
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
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
    parts: { type: 'string', default: 'writes,restart,eviction,compaction' },
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

/** One request over `agent`; resolves with its status and milliseconds. */
function timed(agent: Agent, url: string, method: string, token: string, body?: string) {
  const started = performance.now();
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const req = request(url, { agent, method, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** 4,000 tokens each write a ticket with a 2 KB subject, 20 at a time; the worst answer. */
async function writeEvery(url: string, agent: Agent, round: number): Promise<number> {
  let next = 0;
  let worst = 0;
  const subject = 'y'.repeat(2048);
  const writer = async () => {
    for (let t = next++; t < 4000; t = next++) {
      const body = JSON.stringify({ subject: `${round} ${subject}` });
      const { status, ms } = await timed(agent, `${url}/tickets/${(t % 50) + 1}/`, 'PATCH', `many-${t}`, body);
      if (status !== 200) throw new Error(`a write answered ${status}`);
      worst = Math.max(worst, ms);
    }
  };
  await Promise.all(Array.from({ length: 20 }, writer));
  return worst;
}

async function compaction(rows: BenchRow[]): Promise<void> {
  const file = join(dir, 'compaction.jsonl');
  const mock = await startMock(['--state', file]);
  const agent = new Agent({ keepAlive: true, maxSockets: 21 });
  let reading = true;
  let worstGet = 0;
  const inodes = new Set<number>();
  const reader = (async () => {
    while (reading) {
      const { ms } = await timed(agent, `${mock.url}/tickets/1/`, 'GET', 'many-1');
      worstGet = Math.max(worstGet, ms);
      inodes.add(statSync(file).ino);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  let worstWrite = await writeEvery(mock.url, agent, 1);
  const reset = await timed(agent, `${mock.url}/__mock/reset`, 'POST', 'many-1', '{"scope":"all"}');
  worstWrite = Math.max(worstWrite, reset.ms, await writeEvery(mock.url, agent, 2));
  reading = false;
  await reader;
  agent.destroy();
  const size = statSync(file).size / 1024 / 1024;
  await mock.stop();
  const seen = `${inodes.size - 1} compactions seen, file ${size.toFixed(1)} MB at the end`;
  rows.push(
    {
      part: 'compaction',
      measure: `worst GET, 4,000 tokens writing twice, a reset of every state between (${seen})`,
      value: `${worstGet.toFixed(0)} ms`,
      target: '< 1000 ms',
    },
    {
      part: 'compaction',
      measure: 'worst write (PATCH or the reset), the same run',
      value: `${worstWrite.toFixed(0)} ms`,
      target: '< 1000 ms',
    },
  );
}

ensureWrk();
const rows: BenchRow[] = [];
const parts = new Set(values.parts.split(','));
if (parts.has('writes')) await writes(rows);
if (parts.has('restart')) await restart(rows);
if (parts.has('eviction')) await eviction(rows);
if (parts.has('compaction')) await compaction(rows);
printBenchTable(
  `Durable state (load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}, shared machine)`,
  rows,
);
