/**
 * readNodeBody (src/http/body.ts), the body reader of the mock's server and the proxy, on a real node:http
 * server: a body Node has already parsed whole is taken at once (no promise), one still arriving is
 * read by events, and both keep the size limit; the budget of buffered bytes refuses beyond it.
 */
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BodyBudget, BusyError, readNodeBody } from '../../src/http/index.ts';
import { MAX_BODY_BYTES } from '../../src/mock/index.ts';

interface Seen {
  sync: boolean;
  body: string;
}

let server: Server;
let port = 0;
/** The budget of the next request (none by default). */
let budget: BodyBudget | undefined;

// Like the engine, the handler reads the body after a microtask: Node has parsed the packet by then.
async function handle(req: IncomingMessage): Promise<Seen> {
  await Promise.resolve();
  const read = readNodeBody(req, budget);
  const bytes = read instanceof Promise ? await read : read;
  return { sync: !(read instanceof Promise), body: bytes === 'too-large' ? bytes : bytes.toString() };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req).then(
      (seen) => res.end(JSON.stringify(seen)),
      (error: Error) => res.end(JSON.stringify({ error: error instanceof BusyError ? 'busy' : error.message })),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** Sends `pieces` of a chunked body, `gapMs` apart, or one body with its Content-Length. */
function send(pieces: string[] | string, gapMs = 0, method = 'POST'): Promise<Seen & { error?: string }> {
  return new Promise((resolve, reject) => {
    const headers = typeof pieces === 'string' ? { 'Content-Length': Buffer.byteLength(pieces) } : {};
    const req = request({ port, method, path: '/', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    if (typeof pieces === 'string') return void req.end(pieces);
    const next = (i: number) => {
      if (i === pieces.length) return void req.end();
      req.write(pieces[i]);
      setTimeout(() => next(i + 1), gapMs);
    };
    next(0);
  });
}

describe('readNodeBody', () => {
  it('takes a small body at once once Node has parsed every announced byte', async () => {
    expect(await send('{"initial":"50.00"}')).toEqual({ sync: true, body: '{"initial":"50.00"}' });
  });

  it('reads a body still arriving by events, whole', async () => {
    expect(await send(['{"a":', '1}'], 30)).toEqual({ sync: false, body: '{"a":1}' });
  });

  it('has nothing to wait for when no body is announced', async () => {
    expect(await send([], 0, 'GET')).toMatchObject({ sync: true, body: '' });
  });

  it('stops at MAX_BODY_BYTES on either path', async () => {
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    expect(await send(big)).toMatchObject({ body: 'too-large' });
    expect(await send([big.slice(0, 1000), big.slice(1000)], 20)).toEqual({ sync: false, body: 'too-large' });
  });

  it('refuses a body that would take the buffered bytes over the budget, and gives them back', async () => {
    budget = { buffered: 0, max: 4 };
    try {
      expect(await send(['abc', 'defgh'], 20)).toMatchObject({ error: 'busy' });
      expect(budget.buffered).toBe(0);
      expect(await send('abcdefgh')).toMatchObject({ error: 'busy' });
      expect(budget.buffered).toBe(0);
      expect(await send(['ab', 'cd'], 20)).toEqual({ sync: false, body: 'abcd' });
      expect(await send('abcd')).toEqual({ sync: true, body: 'abcd' });
      expect(budget.buffered).toBe(0);
    } finally {
      budget = undefined;
    }
  });
});
