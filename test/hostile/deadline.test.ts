/**
 * The client's default deadline (issue #21): a server that trickles its answer one byte every 100 ms
 * must not hold a call forever. setTimeout is wrapped to run the deadline's timer 200 times faster (and
 * to record the deadline asked for), so the 60 s default is seen to apply in 0.3 s. `timeout: false`
 * lifts it, on the client or on one call. On main before #21 the first row resolved after the whole
 * trickle (no default deadline).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminClient, DEFAULT_TIMEOUT } from '../../src/client/index.ts';
import { startServer, type TestServer } from '../client/server.ts';
import { bundled, runProcess } from '../helpers/process.ts';

const BODY = `{"id":1}  `; // 10 bytes: 1 s at one byte per 100 ms
const DEADLINES = [DEFAULT_TIMEOUT, 90_000, 30_000]; // the rows' deadlines, not undici's own timers
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
    const original = globalThis.setTimeout;
    const asked: number[] = [];
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number, ...rest: unknown[]) => {
      if (ms === undefined || !DEADLINES.includes(ms)) return original(callback, ms, ...rest);
      asked.push(ms);
      return original(callback, ms / 200, ...rest);
    }) as typeof setTimeout);
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

describe('the client deadline after a garbage collection (issue #31)', () => {
  // A real process with a forced collection every 20 ms: before the fix, Node collected the
  // AbortSignal.timeout() that only AbortSignal.any() held, and the call was still pending at 5 s.
  it('a server trickling its headers, then its body: TimeoutError at about 500 ms each', {
    timeout: 30_000,
  }, async () => {
    const run = await runProcess(process.execPath, ['--expose-gc', bundled('test/hostile/deadline-gc.ts')], {
      cwd: process.cwd(),
      timeoutMs: 25_000,
    });
    expect(run.stderr).toBe('');
    const calls = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { phase: string; outcome: string; ms: number });
    expect(calls.map(({ phase, outcome }) => [phase, outcome])).toEqual([
      ['headers', 'TimeoutError'],
      ['body', 'TimeoutError'],
    ]);
    for (const { ms } of calls) {
      expect(ms).toBeGreaterThanOrEqual(450);
      expect(ms).toBeLessThan(3000);
    }
  });
});
