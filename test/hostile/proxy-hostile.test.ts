/**
 * The proxy against hostile clients and upstreams, round three (issue #31 items 8 and 19): real
 * sockets on loopback, a real upstream that keeps the request line and headers it received.
 * - an absolute-form target naming another host reaches the upstream as a path under its root;
 * - headers named in `Connection:` stop at the proxy, both ways (RFC 9110 §7.6.1);
 * - `OPTIONS *` is answered (204, Allow), another target that is not a path is a 400 problem;
 * - an answer nested too deep to check passes through with a `json` violation, not as "unreachable";
 * - a client that trickles its headers loses the socket once `timeouts.headersMs` is up (408).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxy } from '../../src/proxy/index.ts';

const BASE = '/api/admin';
const DEEP = 100_000;

interface Seen {
  line: string;
  headers: IncomingHttpHeaders;
}

let upstream: Server;
let proxy: ProxyServer;
const seen: Seen[] = [];

beforeAll(async () => {
  upstream = createServer((request, response) => {
    seen.push({ line: `${request.method} ${request.url}`, headers: request.headers });
    if (request.url === `${BASE}/tickets/99/`) {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`);
      return;
    }
    response.writeHead(200, {
      'Content-Type': 'application/json',
      Connection: 'keep-alive, X-Upstream-Hop',
      'X-Upstream-Hop': 'for the proxy only',
    });
    response.end('{"id": 1}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  proxy = await startProxy({
    upstream: `http://127.0.0.1:${port}${BASE}`,
    port: 0,
    timeouts: { headersMs: 300, requestMs: 800 },
  });
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

/**
 * Writes `prefix` then `text` (one byte every `trickleMs` when given) on a raw socket; resolves with
 * everything the proxy sent until it closed, and when.
 */
function raw(text: string, trickleMs = 0, prefix = ''): Promise<{ received: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(proxy.port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      if (!trickleMs) return socket.write(text);
      if (prefix) socket.write(prefix);
      let at = 0;
      timer = setInterval(() => {
        if (at < text.length && socket.writable) socket.write(text[at++] as string);
      }, trickleMs);
    });
    socket.on('data', (chunk) => {
      received += chunk;
      // One answer is enough when nothing trickles (the proxy keeps the connection alive).
      if (!trickleMs && /\r\n\r\n/.test(received) && /content-length: 0|}$/i.test(received)) socket.end();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received, ms: performance.now() - started });
    });
    setTimeout(() => reject(new Error('the proxy kept the socket open for 8 s')), 8_000).unref();
  });
}

describe('the proxy forwards only paths under its upstream', () => {
  it('rewrites an absolute-form target naming another host to a path before forwarding', async () => {
    seen.length = 0;
    const { received } = await raw(
      'GET http://127.0.0.1:6299/tickets/1/?x=1 HTTP/1.1\r\nHost: 127.0.0.1:6299\r\nAuthorization: Bearer secret-token\r\nConnection: close\r\n\r\n',
    );
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(seen.map((s) => s.line)).toEqual([`GET ${BASE}/tickets/1/?x=1`]);
  });

  it('answers OPTIONS * itself (204, Allow) and refuses a target that is not a path with a 400 problem', async () => {
    seen.length = 0;
    const star = await raw('OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(star.received).toMatch(/^HTTP\/1\.1 204 /);
    expect(star.received).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/);
    const odd = await raw('GET ftp://elsewhere/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(odd.received).toMatch(/^HTTP\/1\.1 400 /);
    expect(odd.received).toContain('"type":"urn:store-admin-mock:bad-request"');
    expect(seen).toEqual([]);
  });
});

describe('hop-by-hop headers stop at the proxy', () => {
  it('drops the headers a request names in Connection, and those an answer names', async () => {
    seen.length = 0;
    const { received } = await raw(
      'GET /tickets/2/ HTTP/1.1\r\nHost: x\r\nConnection: close, X-Client-Hop\r\nX-Client-Hop: secret\r\nX-Kept: yes\r\n\r\n',
    );
    expect(seen[0]?.headers['x-client-hop']).toBeUndefined();
    expect(seen[0]?.headers['x-kept']).toBe('yes');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).not.toContain('x-upstream-hop');
  });
});

describe('an answer too deep to check', () => {
  it(`passes a ${DEEP}-deep JSON answer through with a json violation, not as an unreachable upstream`, async () => {
    const answer = await fetch(`${proxy.url}/tickets/99/`);
    expect(answer.status).toBe(200);
    expect(Number(answer.headers.get('x-contract-violations'))).toBeGreaterThan(0);
    expect((await answer.text()).length).toBe(2 * DEEP);
    const report = proxy.report();
    expect(report.unreachable).toBe(0);
    const ticket = report.operations.find((o) => o.operation === 'getTicket');
    expect(ticket?.statuses[502]).toBeUndefined();
    expect(ticket?.byField).toContainEqual(expect.objectContaining({ side: 'response', field: 'body', rule: 'json' }));
  });
});

describe('slow clients', () => {
  it('closes a socket whose headers trickle once headersMs is up (408)', async () => {
    const { received, ms } = await raw(`GET /store/ HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(500)}\r\n\r\n`, 50);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3_000);
  });

  it('closes a socket whose body trickles once requestMs is up (408)', async () => {
    const body = `{"note": "${'a'.repeat(200)}"}`;
    const head = `PATCH /tickets/1/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { received, ms } = await raw(body, 10, head);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThan(700); // the headers were in time: the whole request's bound cut it
    expect(ms).toBeLessThan(4_000);
  });
});
