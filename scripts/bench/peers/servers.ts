/**
 * The servers `npm run bench:peers` compares, each started as its users start it, on 127.0.0.1 and a
 * free port, in processes of its own: the mock (`npm start`'s command), a bare node:http server, and
 * the peers from this folder's node_modules (installed by scripts/bench/peers.ts): Prism's CLI
 * (`-v error`) and json-server (`--quiet`) one process per version, Mockoon's CLI and WireMock's
 * standalone jar (`--no-request-journal`: its docs' advice for long runs) one process each. A server
 * is ready when it answers each of its requests with a 2xx.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Answer, answerOf } from '../../lib/answer.ts';
import { freePort } from '../../lib/net.ts';
import { answerKey, headersOf, type PeerFiles, type PeerRequest, REQUESTS } from './fixtures.ts';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const PEERS = resolve(import.meta.dirname);
const MODULES = resolve(PEERS, 'node_modules');
/** The jar the npm package `wiremock` ships (its name carries the version). */
export const wiremockJar = () => {
  const build = resolve(MODULES, 'wiremock/build');
  const jar = readdirSync(build).find((name) => name.endsWith('.jar'));
  if (!jar) throw new Error(`no jar in ${build}`);
  return resolve(build, jar);
};

/** One process serving some of the requests. */
export interface Served {
  url: string;
  pid: number;
}

export interface PeerServer {
  name: string;
  /** The process that serves `request`, or undefined (not served by this peer). */
  serving(request: PeerRequest): Served | undefined;
  /** Milliseconds from spawn to its first 2xx (the slowest process of the peer). */
  readyMs: number;
  stop(): void;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** One request of `request`'s kind to `url`, its answer as served. */
export const once = (url: string, request: PeerRequest, token?: string): Promise<Answer> =>
  answerOf(`${url}${request.path}`, {
    method: request.method,
    headers: headersOf(request, token),
    ...(request.body !== undefined && { body: request.body }),
  });

/** Spawns `command`, then polls until it answers each of `requests` with a 2xx (60 s at most). */
async function startProcess(
  command: string,
  args: string[],
  port: number,
  options: { requests: readonly PeerRequest[]; env?: Record<string, string> },
) {
  const { requests, env = {} } = options;
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk}`.slice(-2000);
  });
  const url = `http://127.0.0.1:${port}`;
  for (const request of requests) {
    for (let tries = 0; ; tries++) {
      const status = await once(url, request, 'bench-peers-probe').then(
        (a) => a.status,
        () => 0,
      );
      if (status >= 200 && status < 300) break;
      if (child.exitCode !== null || tries > 1200)
        throw new Error(
          `${command} ${args.join(' ')} did not answer ${request.name} (last status ${status}): ${stderr}`,
        );
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  return { url, pid: child.pid as number, child, readyMs: performance.now() - started };
}

/** A peer of one process per version (Prism, json-server): `argsOf(version, port)`. */
async function perVersion(name: string, argsOf: (version: string, port: number) => string[]): Promise<PeerServer> {
  const byVersion = new Map<string, Awaited<ReturnType<typeof startProcess>>>();
  for (const version of new Set(REQUESTS.map((r) => r.version))) {
    const port = await freePort();
    const served = REQUESTS.filter((r) => r.version === version);
    byVersion.set(version, await startProcess(process.execPath, argsOf(version, port), port, { requests: served }));
  }
  const all = [...byVersion.values()];
  return {
    name,
    serving: (request) => byVersion.get(request.version),
    readyMs: Math.max(...all.map((p) => p.readyMs)),
    stop: () => {
      for (const p of all) p.child.kill('SIGTERM');
    },
  };
}

/** A peer of one process serving every request. */
async function single(name: string, command: string, argsOf: (port: number) => string[]): Promise<PeerServer> {
  const port = await freePort();
  const p = await startProcess(command, argsOf(port), port, { requests: REQUESTS });
  return { name, serving: () => p, readyMs: p.readyMs, stop: () => p.child.kill('SIGTERM') };
}

/** The ceiling: node:http answering each request's status, headers and bytes as the mock answered them. */
const BARE_SERVER = `
const answers = new Map(Object.entries(JSON.parse(process.env.BENCH_ANSWERS)).map(([key, a]) => {
  const body = Buffer.from(a.body);
  return [key, { status: a.status, headers: { ...a.headers, 'content-length': body.length }, body }];
}));
require('node:http').createServer((req, res) => {
  const answer = answers.get(req.method + ' ' + req.url + ' ' + req.headers[process.env.BENCH_HEADER]);
  req.resume();
  if (!answer) { res.writeHead(404, { 'content-length': 0 }); return res.end(); }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}).listen(Number(process.env.PORT), '127.0.0.1');`;

export const startMock = () =>
  single('mock', process.execPath, (port) => [
    '--import',
    'tsx',
    'src/cli/bin.ts',
    'mock',
    '--port',
    String(port),
    '--quiet',
  ]);

export async function startBare(answers: Map<PeerRequest, Answer>, header: string): Promise<PeerServer> {
  const table = Object.fromEntries(REQUESTS.map((r) => [answerKey(r.method, r.path, r.version), answers.get(r)]));
  const port = await freePort();
  const env = { BENCH_ANSWERS: JSON.stringify(table), BENCH_HEADER: header.toLowerCase(), PORT: String(port) };
  const p = await startProcess(process.execPath, ['-e', BARE_SERVER], port, { requests: REQUESTS, env });
  return { name: 'bare node:http', serving: () => p, readyMs: p.readyMs, stop: () => p.child.kill('SIGTERM') };
}

export const startPrism = () =>
  perVersion('Prism CLI', (version, port) => [
    ...[resolve(MODULES, '@stoplight/prism-cli/dist/index.js'), 'mock', '-h', '127.0.0.1', '-p', String(port)],
    ...['-v', 'error', `generated/openapi/${version}.json`],
  ]);

export const startJsonServer = (files: PeerFiles) =>
  perVersion('json-server', (version, port) => [
    ...[resolve(MODULES, 'json-server/lib/cli/bin.js'), files.jsonServer[version] as string],
    ...['--port', String(port), '--host', '127.0.0.1', '--quiet'],
  ]);

export const startMockoon = (files: PeerFiles) =>
  single('Mockoon CLI', process.execPath, (port) => [
    ...[resolve(MODULES, '@mockoon/cli/bin/run.js'), 'start', '--data', files.mockoon],
    ...['--port', String(port), '--hostname', '127.0.0.1', '--disable-log-to-file'],
  ]);

export const startWireMock = (files: PeerFiles, java = 'java') =>
  single('WireMock', java, (port) => [
    ...['-jar', wiremockJar(), '--port', String(port), '--bind-address', '127.0.0.1'],
    ...['--root-dir', files.wiremock, '--disable-banner', '--no-request-journal'],
  ]);
