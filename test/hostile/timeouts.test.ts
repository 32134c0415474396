/**
 * Server-side timeouts of the mock's node:http adapter (issue #21): a client that trickles its
 * headers or its body, or idles on a keep-alive connection, loses the socket once the configured
 * time is up (408 problem details for an unfinished request). Short timeouts here keep the test
 * fast; the defaults (DEFAULT_TIMEOUTS, docs/mock.md) are checked to be the documented ones. On main
 * before #21 the `timeouts` option did not exist and each socket stayed open 60 s to 300 s.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, type MockServer, startMock } from '../../src/mock/index.ts';

const TIMEOUTS = { headersMs: 300, requestMs: 800, keepAliveMs: 300 };
let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ port: 0, timeouts: TIMEOUTS });
});
afterAll(() => mock.close());

/** Opens a socket, runs `drive` on it, and resolves with what the server sent and when it closed. */
function session(drive: (socket: Socket) => void): Promise<{ received: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(mock.port, mock.host, () => drive(socket));
    let received = '';
    const timers: NodeJS.Timeout[] = [];
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', () => {}); // the server may reset a socket it closed mid-write
    socket.on('close', () => {
      for (const timer of timers) clearInterval(timer);
      resolve({ received, ms: performance.now() - started });
    });
    (socket as Socket & { timers: NodeJS.Timeout[] }).timers = timers;
    setTimeout(() => reject(new Error('the server kept the socket open for 8 s')), 8_000).unref();
  });
}

/** Writes `text` one byte every `every` ms until the socket closes. */
function trickle(socket: Socket, text: string, every = 50): void {
  let at = 0;
  const timer = setInterval(() => {
    if (at < text.length && socket.writable) socket.write(text[at++] as string);
  }, every);
  (socket as Socket & { timers: NodeJS.Timeout[] }).timers.push(timer);
}

describe('the mock closes slow and idle sockets', () => {
  it.each([
    {
      name: 'headers sent one byte every 50 ms',
      drive: (socket: Socket) =>
        trickle(socket, `GET /store/ HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(500)}\r\n\r\n`),
      limit: TIMEOUTS.headersMs,
      answer: /^HTTP\/1\.1 408 /,
    },
    {
      name: 'a body sent one byte every 50 ms',
      drive: (socket: Socket) => {
        socket.write(
          'PUT /pages/1/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n',
        );
        trickle(socket, `{"title":"${'a'.repeat(380)}"}`);
      },
      limit: TIMEOUTS.requestMs,
      answer: /^HTTP\/1\.1 408 /,
    },
    {
      name: 'an idle keep-alive connection after an answer',
      drive: (socket: Socket) => socket.write('GET /store/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n'),
      limit: TIMEOUTS.keepAliveMs,
      answer: /^HTTP\/1\.1 200 /,
    },
  ])('$name: closed after its timeout', async ({ drive, limit, answer }) => {
    const { received, ms } = await session(drive);
    expect(received).toMatch(answer);
    expect(ms).toBeGreaterThanOrEqual(limit * 0.9);
    expect(ms).toBeLessThan(limit + 2_000);
  });

  it('defaults to the documented values', () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
  });
});
