/**
 * `drift --base-url` against hostile recordings and servers (issue #31 items 11 and 21, issue #26's
 * "one finding per cause"), with real node:http servers on loopback:
 * - a recorded target that is not a path (`:PORT/…`, `@host:PORT/…`, `//host/…`) never sends the
 *   token anywhere: the recording is refused (exit 3), and replay itself resolves every target as a
 *   path under the base URL and checks the origin;
 * - a server that trickles its answer, or answers too much, ends the run with a clear error (exit 3);
 * - malformed exchange entries are refused naming the entry and the field, never a stack trace;
 * - a list the server answers empty is one finding (information: no item to compare), not one per
 *   field of its items.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { Findings } from '../../src/drift/findings.ts';
import { RecordingError, runDrift } from '../../src/drift/index.ts';
import { replayReads, replayUrl } from '../../src/drift/replay.ts';
import type { RecordedExchange, Recording } from '../../src/proxy/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'drift-replay-'));
const TOKEN = 'replay-secret-token';
const LIST = {
  next: null,
  previous: null,
  results: [
    { id: 1, status: 'active', user: { email: 'a@example.com', first_name: 'A' }, lines: [{ id: 5, sku: 'x' }] },
    { id: 2, status: 'active', user: { email: 'b@example.com', first_name: 'B' }, lines: [] },
  ],
};

/** Requests the servers received, with their Authorization. */
const received: { server: string; url: string; authorization?: string }[] = [];
const servers: Server[] = [];

async function serve(name: string, handle: (url: string, response: ServerResponse) => void): Promise<number> {
  const server = createServer((request, response) => {
    received.push({ server: name, url: request.url ?? '', authorization: request.headers.authorization });
    handle(request.url ?? '', response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

let trap: number;
let api: number;
beforeAll(async () => {
  trap = await serve('trap', (_url, response) => response.end('{}'));
  api = await serve('api', (url, response) => {
    if (url.startsWith('/api/admin/subscriptions/')) {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"next": null, "previous": null, "results": []}');
    } else if (url === '/api/admin/tickets/trickle/') {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      const timer = setInterval(() => response.write(' '), 100);
      response.on('close', () => clearInterval(timer));
    } else if (url === '/api/admin/tickets/huge/') {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (response.write(chunk)) {}
      };
      response.on('drain', pump);
      response.on('close', () => response.off('drain', pump));
      pump();
    } else {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '4294967296' });
      response.end();
    }
  });
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// No `id` by default: an answer whose id is not its target's (`/tickets/trickle/`) is not replayed.
const exchange = (target: string, body: unknown = { subject: 'a ticket' }): RecordedExchange => ({
  operation: 'getTicket',
  version: 'unstable',
  method: 'GET',
  target,
  status: 200,
  body,
});

function recordingOf(exchanges: unknown[]): Recording {
  const meta = { format: 1, upstream: 'http://x', recordedAt: '', limit: 1, dropped: 0, skipped: 0, redacted: [] };
  return { $recording: { ...meta, maxBytes: 1, exchanges } } as unknown as Recording;
}

function fileOf(name: string, exchanges: unknown[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(recordingOf(exchanges)));
  return file;
}

/** runCli with console.error captured. */
async function cli(args: string[]): Promise<{ code: number; errors: string }> {
  const lines: string[] = [];
  const error = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    return { code: await runCli(args), errors: lines.join('\n') };
  } finally {
    error.mockRestore();
    log.mockRestore();
  }
}

describe('the token stays with the base URL', () => {
  it.each([
    ['a port', (port: number) => `:${port}/tickets/1/`],
    ['userinfo', (port: number) => `@127.0.0.1:${port}/tickets/1/`],
    ['an authority', (port: number) => `//127.0.0.1:${port}/tickets/1/`],
  ])('refuses a recorded target with %s (exit 3), sending nothing', async (_name, target) => {
    received.length = 0;
    const file = fileOf('origin', [exchange(target(trap))]);
    const run = await cli(['drift', '--recording', file, '--base-url', 'http://127.0.0.1', '--token', TOKEN]);
    expect(run.code).toBe(3);
    expect(run.errors).toMatch(/\$recording\.exchanges\[0\]\.target must be a path/);
    expect(received).toEqual([]);
  });

  it('replay resolves every target as a path under the base URL, and refuses one leaving its origin', async () => {
    const base = new URL(`http://127.0.0.1:${api}/api/admin/`);
    expect(replayUrl(base, '/tickets/1/?a=b').href).toBe(`http://127.0.0.1:${api}/api/admin/tickets/1/?a=b`);
    for (const target of [`:${trap}/x`, `@127.0.0.1:${trap}/x`, `//127.0.0.1:${trap}/x`, 'http://127.0.0.1/x'])
      expect(() => replayUrl(base, target), target).toThrow(RecordingError);
    received.length = 0;
    const replay = replayReads(
      recordingOf([exchange(`:${trap}/tickets/1/`)]),
      { baseUrl: 'http://127.0.0.1', token: TOKEN },
      new Findings(),
    );
    await expect(replay).rejects.toThrow(/is not a path/);
    expect(received).toEqual([]);
  });
});

describe('bounded replay', () => {
  it('ends on a trickling answer after timeoutMs with a clear error', async () => {
    const file = fileOf('trickle', [exchange('/tickets/trickle/')]);
    const started = performance.now();
    const run = runDrift({
      recording: file,
      replay: { baseUrl: `http://127.0.0.1:${api}/api/admin`, token: TOKEN, timeoutMs: 500 },
    });
    await expect(run).rejects.toThrow(
      /cannot replay GET \/api\/admin\/tickets\/trickle\/ .*no whole answer within 500 ms/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stops reading an answer over maxResponseBytes, declared or streamed', async () => {
    const base = `http://127.0.0.1:${api}/api/admin`;
    for (const [target, message] of [
      ['/tickets/huge/', /answered more than 1048576 bytes/],
      ['/tickets/declared/', /answered 4294967296 bytes, over the bound of 1048576/],
    ] as const) {
      const file = fileOf('huge', [exchange(target)]);
      const run = runDrift({ recording: file, replay: { baseUrl: base, token: TOKEN, maxResponseBytes: 1024 * 1024 } });
      await expect(run, target).rejects.toThrow(message);
    }
  });
});

describe('malformed exchange entries', () => {
  it.each([
    [[null], /exchanges\[0\] must be an object/],
    [[exchange('/tickets/1/'), { ...exchange('/x'), operation: 7 }], /exchanges\[1\]\.operation must be a string/],
    [[{ ...exchange('/x'), status: '200' }], /exchanges\[0\]\.status must be an HTTP status/],
    [[{ ...exchange('/x'), body: undefined }], /exchanges\[0\]\.body is required/],
  ])('refuses %j with exit 3 naming the entry and field, no stack trace', async (exchanges, message) => {
    const run = await cli(['drift', '--recording', fileOf('malformed', exchanges)]);
    expect(run.code).toBe(3);
    expect(run.errors).toMatch(message);
    expect(run.errors).not.toMatch(/\n\s+at /);
  });
});

describe('one finding per cause', () => {
  it('a list the server answers empty is one finding, not one per field of its items', async () => {
    const file = fileOf('empty-list', [
      { ...exchange('/subscriptions/?status=active', LIST), operation: 'listSubscriptions', version: '2024-04-01' },
    ]);
    const report = await runDrift({
      recording: file,
      replay: { baseUrl: `http://127.0.0.1:${api}/api/admin`, token: TOKEN },
    });
    const replay = report.findings.filter((f) => f.kind.startsWith('replay'));
    expect(replay.map((f) => `${f.kind} ${f.field} ${f.detail}`)).toEqual([
      'replay-empty body.results[] the server answered an empty list',
    ]);
  });
});
