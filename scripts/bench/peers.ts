/**
 * `npm run bench:peers`: the package's mock beside its peers on the same requests (issue 28 item 4),
 * with provenance, modelled on MockServer's published benchmark: versions, machine, load average and
 * the command are printed with the figures, and every figure is also a ratio to a bare node:http
 * server answering the mock's own bytes, measured in the same rounds.
 *   - The requests (./peers/fixtures.ts): GET /stockrecords/7/, GET /subscriptions/?status=active in
 *     2023-02-10 and 2024-04-01 (the version header), POST /gift-cards/ (a create).
 *   - The servers (./peers/servers.ts): the mock (`npm start`'s command), bare node:http, Prism's CLI,
 *     json-server, Mockoon's CLI (npm packages pinned in scripts/bench/peers/package.json and its
 *     lockfile, installed here with `npm ci` into its own node_modules), and WireMock's standalone jar
 *     (the npm package `wiremock`) where `java` runs (Debian: `apt-get install -y
 *     default-jre-headless`), skipped with a line saying so otherwise.
 *   - The measure: wrk (Debian's; installed when missing), one thread, 20 keep-alive connections,
 *     `--seconds` per run; a warm-up run of each server on each request (discarded: the JVM and V8
 *     compile), then `--rounds` interleaved rounds (each round runs every request on every server, in
 *     an order rotated each round), medians; the server's CPU per request from /proc.
 * Targets (issue 28): the list at least 5x Prism and ahead of WireMock. Not part of `npm test`.
 * Usage: tsx scripts/bench/peers.ts [--seconds S] [--rounds N] [--java COMMAND (default: java)]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION_HEADER } from '../../src/contract/index.ts';
import type { Answer } from '../lib/answer.ts';
import { printBenchTable } from '../lib/bench-table.ts';
import { BARE, type PeerMeasure, type PeerTarget, peerRows, targetRows } from '../lib/peers-table.ts';
import { ensureWrk, requestLua, runWrkOn } from '../lib/wrk.ts';
import { headersOf, isList, type PeerRequest, REQUESTS, writePeerFiles } from './peers/fixtures.ts';
import {
  once,
  PEERS,
  type PeerServer,
  ROOT,
  startBare,
  startJsonServer,
  startMock,
  startMockoon,
  startPrism,
  startWireMock,
} from './peers/servers.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    java: { type: 'string', default: 'java' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = 20;

/** `npm ci` in scripts/bench/peers when its node_modules is missing or older than its lockfile. */
function installPeers(): void {
  const stamp = join(PEERS, 'node_modules/.package-lock.json');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(join(PEERS, 'package-lock.json')).mtimeMs) return;
  console.log('installing the peers (npm ci in scripts/bench/peers)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEERS, stdio: 'inherit' });
}

/** The first line a tool prints about its version (on stdout or stderr), or undefined where it does not run. */
function toolVersion(command: string, args: string[]): string | undefined {
  const ran = spawnSync(command, args, { encoding: 'utf8' });
  if (ran.error) return undefined;
  return `${ran.stdout}${ran.stderr}`.split('\n')[0]?.trim() || undefined;
}

const versionAt = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
const versionOf = (pkg: string) => versionAt(join(PEERS, 'node_modules', pkg));

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** One wrk run of `request` against the process of `server` that serves it, with its CPU per request. */
function measure(server: PeerServer, request: PeerRequest, seconds: number, round: number) {
  const served = server.serving(request);
  if (!served) throw new Error(`${server.name} does not serve ${request.name}`);
  const lua = requestLua({
    method: request.method,
    headers: headersOf(request),
    ...(request.body !== undefined && { body: request.body }),
    ...(request.tokenEvery && { tokenEvery: { token: `bench-peers-${round}`, every: request.tokenEvery } }),
  });
  return runWrkOn(served.pid, `${served.url}${request.path}`, lua, { threads: 1, connections: CONNECTIONS, seconds });
}

async function startAll(answers: Map<PeerRequest, Answer>, dir: string, java: string | undefined) {
  const files = await writePeerFiles(dir, answers);
  const servers: PeerServer[] = [await startBare(answers, VERSION_HEADER)];
  servers.push(await startPrism(), await startJsonServer(files), await startMockoon(files));
  if (java) servers.push(await startWireMock(files, values.java));
  return servers;
}

/** Every request on every server, `ROUNDS` times, the order of the servers rotated each round. */
function rounds(servers: PeerServer[]): PeerMeasure[] {
  const measures: PeerMeasure[] = [];
  for (const request of REQUESTS)
    for (const server of servers) measures.push({ request: request.name, server: server.name, bytes: 0, runs: [] });
  const entry = (request: PeerRequest, server: PeerServer) =>
    measures.find((m) => m.request === request.name && m.server === server.name) as PeerMeasure;
  for (const request of REQUESTS) for (const server of servers) measure(server, request, 1, -1); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = servers.map((_, i) => servers[(i + round) % servers.length] as PeerServer);
    for (const request of REQUESTS)
      for (const server of order) entry(request, server).runs.push(measure(server, request, SECONDS, round));
    console.log(`round ${round + 1} of ${ROUNDS} done, load average ${load()}`);
  }
  return measures;
}

ensureWrk();
installPeers();
const java = toolVersion(values.java, ['-version']);
if (!java)
  console.log(
    `WireMock skipped: "${values.java} -version" does not run (Debian: apt-get install -y default-jre-headless)`,
  );
const loadBefore = load();
const dir = mkdtempSync(join(tmpdir(), 'bench-peers-'));
const mock = await startMock();
const served = mock.serving(REQUESTS[0] as PeerRequest) as { url: string };
const answers = new Map<PeerRequest, Answer>();
for (const request of REQUESTS) answers.set(request, await once(served.url, request, 'bench-peers-answer'));
let servers: PeerServer[] = [mock];
try {
  servers = [...(await startAll(answers, dir, java)), mock];
  const measures = rounds(servers);
  for (const m of measures) {
    const request = REQUESTS.find((r) => r.name === m.request) as PeerRequest;
    const server = servers.find((s) => s.name === m.server) as PeerServer;
    const body = (await once((server.serving(request) as { url: string }).url, request)).body;
    m.bytes = Buffer.byteLength(body);
    // A create's answer differs by its id and code; a read's is the mock's bytes or not.
    m.sameBytes = request.method === 'GET' && body === answers.get(request)?.body;
  }
  const lists = REQUESTS.filter(isList);
  const targets: PeerTarget[] = lists.flatMap((r) => [
    { request: r.name, server: 'mock', peer: 'Prism CLI', times: 5 },
    { request: r.name, server: 'mock', peer: 'WireMock', times: 1 },
  ]);
  const wrk = toolVersion('wrk', ['--version'])?.split(' [')[0];
  console.log(`\ncommand: npm run bench:peers -- --seconds ${SECONDS} --rounds ${ROUNDS}`);
  console.log(
    `machine: ${cpus()[0]?.model ?? 'cpu'}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.versions.node}; ${wrk} (-t1 -c${CONNECTIONS} -d${SECONDS}s)`,
  );
  console.log(`ready (spawn to first 2xx): ${servers.map((s) => `${s.name} ${s.readyMs.toFixed(0)} ms`).join(', ')}`);
  console.log(
    `versions: @store-admin/contract ${versionAt(ROOT)}, @stoplight/prism-cli ${versionOf('@stoplight/prism-cli')}, json-server ${versionOf('json-server')}, @mockoon/cli ${versionOf('@mockoon/cli')}, wiremock ${versionOf('wiremock')}${java ? ` on ${java}` : ' (skipped: no java)'}`,
  );
  console.log(`load average (1, 5, 15 min): before ${loadBefore}, after ${load()}`);
  printBenchTable(`Peers (median of ${ROUNDS} interleaved rounds of ${SECONDS} s; ratio to ${BARE})`, [
    ...peerRows(measures),
    ...targetRows(measures, targets),
  ]);
} finally {
  for (const server of servers) server.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
