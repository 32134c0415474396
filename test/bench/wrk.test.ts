/**
 * scripts/lib/wrk.ts, the benches' one way to run wrk, against a server of this test: the Lua it
 * writes sets the headers and paces each connection, and a failed answer is counted. (The targets
 * themselves are benchmarks, never asserted here.)
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasWrk, headersLua, paceLua, runWrkAsync } from '../../scripts/lib/wrk.ts';

let server: Server;
let url = '';
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // Installed by .ci/run (Debian's package), as the benches install it; a test installs nothing.
  if (!hasWrk()) throw new Error('wrk is not installed: apt-get install -y wrk');
  server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(request.url === '/fail' ? 500 : 200, { 'Content-Length': '2' });
    response.end('ok');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

it('sends the headers on every request, one request per connection every paceMs at most', async () => {
  const lua = `${headersLua({ 'X-Quote': 'a "b" ]] [[c', Authorization: 'Bearer t' })}${paceLua(100)}`;
  const result = await runWrkAsync(`${url}/ok`, lua, { threads: 1, connections: 2, seconds: 1 });
  expect(result.failures).toBe(0);
  expect(result.requests).toBeGreaterThan(0);
  // Two connections, one request per 100 ms each, for one second (and the first ones at once).
  expect(result.requests).toBeLessThanOrEqual(24);
  expect(seen.length).toBeGreaterThanOrEqual(result.requests);
  for (const headers of seen) {
    expect(headers['x-quote']).toBe('a "b" ]] [[c');
    expect(headers.authorization).toBe('Bearer t');
  }
});

it('counts answers that are not 2xx or 3xx as failures', async () => {
  const result = await runWrkAsync(`${url}/fail`, paceLua(100), { threads: 1, connections: 1, seconds: 1 });
  expect(result.failures).toBe(result.requests);
  expect(result.p50Ms).toBeGreaterThan(0);
});
