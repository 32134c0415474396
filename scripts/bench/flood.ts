/**
 * Benchmark of the mock under a hostile body flood (issue "hostile input"): while 200 connections
 * each send a 10 MB body without a token to POST /gift-cards/, one client measures a plain
 * authenticated GET /store/. Reports the mock's peak RSS (read from /proc) and the GET's p50/p99.
 * Targets: RSS under 300 MB, p99 under 50 ms. Bounded: the flood runs for --seconds (default 5).
 * The mock runs in a child process (`src/cli/bin.ts mock`); the flood and the probe run here, on
 * 127.0.0.1 only.
 * Usage: tsx scripts/bench/flood.ts [--seconds S] [--connections N] [--mb M]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION_HEADER } from '../../src/contract/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/tsx/dist/cli.mjs');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '200' },
    mb: { type: 'string', default: '10' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const BODY_BYTES = Number(values.mb) * 1024 * 1024;

const child = spawn(process.execPath, [TSX, 'src/cli/bin.ts', 'mock', '--port', '0', '--quiet'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
const stop = () => {
  if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
};
process.on('exit', stop);
const url = new URL(
  await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const found = /listening on (\S+)/.exec(out);
      if (found?.[1]) done(found[1]);
    });
    child.once('exit', (code) => fail(new Error(`the mock exited with ${code}`)));
  }),
);

/** The mock process tree's resident memory in MB (the tsx wrapper's child does the work). */
function rssMb(): number {
  const pids = [child.pid ?? 0];
  try {
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    pids.push(...children.filter(Boolean).map(Number));
  } catch {}
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {}
  }
  return kb / 1024;
}

/** One flooding connection: a POST announcing a 10 MB body, written as fast as the socket takes it. */
function flood(until: number): Promise<void> {
  return new Promise((done) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const finish = () => {
      socket.destroy();
      done();
    };
    socket.on('error', finish);
    socket.on('close', finish);
    // A socket the server stopped reading never drains: end it when the flood is over.
    setTimeout(finish, Math.max(0, until - Date.now()));
    socket.on('connect', () => {
      socket.write(
        `POST /gift-cards/ HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
          `${VERSION_HEADER}: 2023-02-10\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`,
      );
      const pump = () => {
        while (sent < BODY_BYTES && Date.now() < until) {
          sent += chunk.length;
          if (!socket.write(chunk)) return;
        }
        if (Date.now() >= until || sent >= BODY_BYTES) socket.end();
      };
      socket.on('drain', pump);
      pump();
    });
  });
}

function probe(): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const req = request(
      new URL('/store/', url),
      { headers: { Authorization: 'Bearer bench', [VERSION_HEADER]: '2024-04-01' }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => done(performance.now() - started));
      },
    );
    req.on('error', fail);
    req.setTimeout(5_000, () => req.destroy(new Error('no answer in 5 s')));
    req.end();
  });
}

const baseline = rssMb();
const until = Date.now() + SECONDS * 1000;
const floods = Array.from({ length: CONNECTIONS }, () => flood(until));
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMb());
}, 50);
const latencies: number[] = [];
let failed = 0;
while (Date.now() < until) {
  await probe().then(
    (ms) => latencies.push(ms),
    () => failed++,
  );
}
clearInterval(sampler);
await Promise.all(floods);
const after = rssMb();
stop();

latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
const p99 = pct(99);
console.log(`\nMock under a body flood: ${CONNECTIONS} connections x ${values.mb} MB unauthenticated, ${SECONDS} s`);
console.log('| measure | value | target |');
console.log('|---|---|---|');
console.log(`| RSS before | ${baseline.toFixed(0)} MB | |`);
console.log(`| RSS peak during the flood | **${peak.toFixed(0)} MB** | < 300 MB ${peak < 300 ? 'met' : 'MISSED'} |`);
console.log(`| RSS after | ${after.toFixed(0)} MB | |`);
console.log(`| GET /store/ during the flood | ${latencies.length} answered, ${failed} failed | |`);
console.log(
  `| GET /store/ p50 / p99 | ${pct(50).toFixed(1)} / **${p99.toFixed(1)} ms** | p99 < 50 ms ${p99 < 50 ? 'met' : 'MISSED'} |`,
);
process.exit(0);
