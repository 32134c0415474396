// src/proxy/upstream.ts: the header filter of a hop (its verdict per name remembered, what a
// Connection line names dropped per message), and the upstream's keep-alive agent reads the answer's `Keep-Alive: timeout=N`
// hint from its raw lines (node's own agent builds the answer's header object for it): a socket is
// reused while the hint leaves time, and not kept when it leaves none (1 s margin, as node's).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstream, headerFilter } from '../../src/proxy/upstream.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server answering `ok`, its keep-alive timeout `keepAliveMs` (announced as `Keep-Alive: timeout=N`); counts connections. */
async function upstreamWith(keepAliveMs: number): Promise<{ url: URL; connections: () => number }> {
  let connections = 0;
  const server = createServer((_request, response) => response.end('ok'));
  server.keepAliveTimeout = keepAliveMs;
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}`), connections: () => connections };
}

/** One GET through the upstream, read to its end; resolves with the answer's Keep-Alive line. */
function get(upstream: ReturnType<typeof createUpstream>): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const call = { method: 'GET', target: '/', rawHeaders: [], body: Buffer.alloc(0) };
    upstream.send(call, {
      onAnswer: (answer: IncomingMessage) => {
        answer.resume();
        // After node's agent has handled the socket ('free' comes on the next tick).
        answer.on('end', () => setTimeout(() => resolve(String(answer.headers['keep-alive'])), 20));
      },
      onError: reject,
    });
  });
}

/** Three GETs in a row through an upstream whose keep-alive timeout is `keepAliveMs`: its hint, and the connections opened. */
async function threeGets(keepAliveMs: number): Promise<{ hint: string | undefined; connections: number }> {
  const { url, connections } = await upstreamWith(keepAliveMs);
  const upstream = createUpstream(url);
  try {
    const hint = await get(upstream);
    await get(upstream);
    await get(upstream);
    return { hint, connections: connections() };
  } finally {
    upstream.close();
  }
}

describe('the upstream agent and Keep-Alive: timeout=N', () => {
  it('reuses the socket while the hint leaves time (timeout=5)', async () => {
    expect(await threeGets(5000)).toEqual({ hint: 'timeout=5', connections: 1 });
  });

  it('does not keep a socket the upstream closes within the margin (timeout=1): a new one per request', async () => {
    expect(await threeGets(1000)).toEqual({ hint: 'timeout=1', connections: 3 });
  });
});

describe('headerFilter', () => {
  const filter = headerFilter((lower) => lower === 'accept-encoding');

  it('drops hop-by-hop lines and those refused, keeps the case and the repeated lines', () => {
    const raw = ['Host', 'a', 'Set-Cookie', 'x=1', 'Accept-Encoding', 'gzip', 'set-cookie', 'y=2', 'Keep-Alive', 't'];
    expect(filter(raw)).toEqual(['Set-Cookie', 'x=1', 'set-cookie', 'y=2']);
    // Again (the verdicts remembered): the same answer.
    expect(filter(raw)).toEqual(['Set-Cookie', 'x=1', 'set-cookie', 'y=2']);
  });

  it('drops what a Connection line names in that message only', () => {
    const named = ['Connection', 'keep-alive, X-Hop', 'X-Hop', '1', 'X-End', '2'];
    expect(filter(named)).toEqual(['X-End', '2']);
    expect(filter(['X-Hop', '1', 'X-End', '2'])).toEqual(['X-Hop', '1', 'X-End', '2']);
    expect(filter(['connection', 'keep-alive', 'X-Hop', '1'])).toEqual(['X-Hop', '1']);
    // Two Connection lines: what both name.
    const two = ['Connection', 'x-a', 'X-A', '1', 'Connection', ' X-B ,', 'x-b', '2', 'X-C', '3'];
    expect(filter(two)).toEqual(['X-C', '3']);
  });

  it('filters alike past the names it remembers (a client sending hundreds of names)', () => {
    const many = Array.from({ length: 300 }, (_, i) => [`X-Name-${i}`, String(i)]).flat();
    expect(filter(many)).toEqual(many);
    expect(filter([...many, 'TE', 'trailers', 'Upgrade', 'h2c'])).toEqual(many);
  });
});
