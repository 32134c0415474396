/**
 * The client's default deadline (issue #21): a server that trickles its answer one byte every 100 ms
 * must not hold a call forever. AbortSignal.timeout is wrapped to run 200 times faster (and to
 * record the deadline asked for), so the 60 s default is seen to apply in 0.3 s. `timeout: false`
 * lifts it, on the client or on one call. On main before #21 the first row resolved after the whole
 * trickle (no default deadline).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminClient, DEFAULT_TIMEOUT } from '../../src/client/index.ts';
import { startServer, type TestServer } from '../client/server.ts';

const BODY = `{"id":1}  `; // 10 bytes: 1 s at one byte per 100 ms
let server: TestServer;

function trickle(response: ServerResponse) {
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': BODY.length });
  let at = 0;
  const timer = setInterval(() => {
    if (response.destroyed || at >= BODY.length) {
      clearInterval(timer);
      response.end();
      return;
    }
    response.write(BODY[at++]);
  }, 100);
}

beforeAll(async () => {
  server = await startServer((_, response) => trickle(response));
});
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

describe('the client deadline on a server that trickles its answer', () => {
  it.each([
    { name: 'no timeout given: the default', client: {}, call: {}, asked: [DEFAULT_TIMEOUT], outcome: 'TimeoutError' },
    { name: 'a client timeout', client: { timeout: 90_000 }, call: {}, asked: [90_000], outcome: 'TimeoutError' },
    {
      name: 'a call timeout over the default',
      client: {},
      call: { timeout: 30_000 },
      asked: [30_000],
      outcome: 'TimeoutError',
    },
    { name: 'timeout: false on the client', client: { timeout: false }, call: {}, asked: [], outcome: 'answered' },
    { name: 'timeout: false on one call', client: {}, call: { timeout: false }, asked: [], outcome: 'answered' },
  ] as const)('$name → $outcome', { timeout: 10_000 }, async (row) => {
    const original = AbortSignal.timeout.bind(AbortSignal);
    const asked: number[] = [];
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      asked.push(ms);
      return original(ms / 200);
    });
    const client = createAdminClient({ baseUrl: server.url, token: 't', retry: false, ...row.client });
    const outcome = await client.GET('/store/', { ...row.call }).then(
      ({ data }) => (data ? 'answered' : 'no data'),
      (error: Error) => error.name,
    );
    expect(outcome).toBe(row.outcome);
    expect(asked).toEqual(row.asked);
  });

  it('is 60 s, as docs/client.md says', () => {
    expect(DEFAULT_TIMEOUT).toBe(60_000);
  });
});
