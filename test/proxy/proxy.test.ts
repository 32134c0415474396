// The validating proxy against a stand-in upstream that diverges on purpose (./stand-in.ts): what is
// forwarded, each report line, the violation header and trailer, the log, --strict, and the upstream
// faults (unreachable 502, timeout 504, 5xx passed through, redirect passed back, size bound).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionOf } from '../../src/contract/index.ts';
import { type ProxyReport, type ProxyServer, REPORT_PATH, startProxy } from '../../src/proxy/index.ts';
import { BASE_PATH, PLANTED, type StandIn, startStandIn } from './stand-in.ts';

const TOKEN = 'tok-9f8e7d6c5b4a';
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const V = (version: string) => ({ ...AUTH, 'X-Service-API-Version': version });

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  trailers: NodeJS.Dict<string>;
  body: string;
}

/** One request through node:http, so the trailer is readable too. */
function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, trailers: response.trailers, body }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

let upstream: StandIn;
let other: StandIn;
let proxy: ProxyServer;
const log: string[] = [];

beforeAll(async () => {
  other = await startStandIn();
  upstream = await startStandIn(other.url.slice(0, -BASE_PATH.length));
  proxy = await startProxy({ upstream: upstream.url, port: 0, upstreamTimeoutMs: 1500, log: (line) => log.push(line) });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
  await other.close();
});

const operationOf = (report: ProxyReport, operation: string, version: string) =>
  report.operations.find((o) => o.operation === operation && o.version === version);

describe('forwarding', () => {
  it('forwards method, path under the upstream base path, query, headers (token, version) and body; sends the answer back whole', async () => {
    const body = JSON.stringify({ status: 'solved' });
    const answer = await call(`${proxy.url}/tickets/1/?x=1`, {
      method: 'PATCH',
      headers: { ...V('2024-04-01'), 'Content-Type': 'application/json', 'X-Request-Tag': 'tag-1' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 1, status: 'solved' });
    const seen = upstream.received.at(-1);
    expect(seen).toMatchObject({ method: 'PATCH', url: `${BASE_PATH}/tickets/1/?x=1`, body });
    expect(seen?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'x-service-api-version': '2024-04-01',
      'x-request-tag': 'tag-1',
    });
    expect(answer.headers['x-contract-violations']).toBe('0');
    // Held (under 256 KiB), checked, then sent in one piece: the total in the header, no trailer.
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    expect(answer.headers.trailer).toBeUndefined();
  });

  it('streams an answer longer than heldBytes: the request count in the header, the total in the trailer', async () => {
    const streaming = await startProxy({ upstream: upstream.url, port: 0, heldBytes: 1024 });
    try {
      const answer = await call(`${streaming.url}${PLANTED.unknownEnum}`, { headers: V('2024-04-01') });
      expect(Buffer.byteLength(answer.body)).toBeGreaterThan(1024);
      expect(JSON.parse(answer.body).results[0].status).toBe('trialing');
      expect(answer.headers['transfer-encoding']).toBe('chunked');
      expect(answer.headers['x-contract-violations']).toBe('0');
      expect(answer.trailers['x-contract-violations']).toBe('1');
    } finally {
      await streaming.close();
    }
  });

  it('validates against the endpoint default version when no version is asked', async () => {
    const answer = await call(`${proxy.url}/store/`, { headers: AUTH });
    expect(answer.status).toBe(200);
    expect(operationOf(proxy.report(), 'getStore', versionOf('get', '/store/'))?.exchanges).toBeGreaterThan(0);
  });

  it('adds no CORS of its own: the mock headers, the upstream ones dropped; preflights answered like the mock', async () => {
    const answer = await call(`${proxy.url}/tickets/1/`, { headers: { ...V('unstable'), Origin: 'http://app.test' } });
    expect(answer.headers['access-control-allow-origin']).toBe('http://app.test');
    const preflight = await call(`${proxy.url}/tickets/1/`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'PATCH' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    expect(upstream.received.some((r) => r.method === 'OPTIONS')).toBe(false);
  });

  it("passes repeated upstream header lines on as lines, and never the upstream's own X-Contract-Violations", async () => {
    const answer = await call(`${proxy.url}${PLANTED.ownHeaders}`, { headers: V('unstable') });
    expect(answer.status).toBe(200);
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers['x-contract-violations']).toBe('0');
  });

  it('serves /docs like the mock', async () => {
    const answer = await call(`${proxy.url}/docs/`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/html/);
  });
});

describe('each divergence is a report line', () => {
  it('a wrong type: response body.num_in_stock type, in the header and the log', async () => {
    const answer = await call(`${proxy.url}${PLANTED.wrongType}`, { headers: V('2023-02-10') });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-contract-violations']).toBe('1'); // the request was fine, the answer not
    expect(operationOf(proxy.report(), 'getStockRecord', '2023-02-10')?.byField).toContainEqual({
      side: 'response',
      field: 'body.num_in_stock',
      rule: 'type',
      count: 1,
    });
    expect(log.join('\n')).toMatch(
      /^ {2}violation getStockRecord \[2023-02-10\] response body\.num_in_stock type: must be integer or null \(received /m,
    );
  });

  it('a number beyond its bounds: response body.num_allocated maximum', async () => {
    await call(`${proxy.url}${PLANTED.outOfBounds}`, { headers: V('2023-02-10') });
    expect(operationOf(proxy.report(), 'getStockRecord', '2023-02-10')?.byField).toContainEqual(
      expect.objectContaining({ field: 'body.num_allocated', rule: 'maximum' }),
    );
  });

  it('an unknown enum value: response body.results[0].status enum', async () => {
    await call(`${proxy.url}${PLANTED.unknownEnum}`, { headers: V('2024-04-01') });
    expect(operationOf(proxy.report(), 'listSubscriptions', '2024-04-01')?.byField).toContainEqual({
      side: 'response',
      field: 'body.results[0].status',
      rule: 'enum',
      count: 1,
    });
  });

  it('an extra field and a null break no rule (the contract is open and nullable): no line, the exchange counted', async () => {
    const extra = await call(`${proxy.url}${PLANTED.extraField}`, { headers: V('unstable') });
    const nulled = await call(`${proxy.url}${PLANTED.nullValue}`, { headers: V('2024-04-01') });
    expect(JSON.parse(extra.body).satisfaction_rating).toBe(4);
    expect(JSON.parse(nulled.body)[0].name).toBeNull();
    expect(extra.headers['x-contract-violations']).toBe('0');
    expect(operationOf(proxy.report(), 'getTicket', 'unstable')?.violations).toBe(0);
  });

  it('an invalid request is forwarded by default and reported on the request side', async () => {
    const before = upstream.received.length;
    const answer = await call(`${proxy.url}/fulfillment-orders/?status=bogus`, { headers: V('2024-04-01') });
    expect(upstream.received.length).toBe(before + 1);
    // The request's violation and the answer's (the upstream's 422, a status the operation does not declare).
    expect(answer.status).toBe(422);
    expect(answer.headers['x-contract-violations']).toBe('2');
    const byField = operationOf(proxy.report(), 'listFulfillmentOrders', '2024-04-01')?.byField;
    expect(byField).toContainEqual(
      expect.objectContaining({ side: 'request', field: 'query.status[0]', rule: 'enum' }),
    );
    expect(byField?.filter((line) => line.side === 'response')).toHaveLength(1);
    // The field is named once (issue 27: "query.status[0] enum: query.status[0]: must be …").
    expect(log.join('\n')).toMatch(
      /^ {2}violation listFulfillmentOrders \[2024-04-01\] request query\.status\[0\] enum: must be one of /m,
    );
  });

  it('GET /__proxy/report is the report as JSON, and the log never holds the token or a header value', async () => {
    const answer = await call(`${proxy.url}${REPORT_PATH}`);
    const report = JSON.parse(answer.body) as ProxyReport;
    expect(report.upstream).toBe(upstream.url);
    expect(report.exchanges).toBe(proxy.report().exchanges);
    expect(report.violations).toBeGreaterThanOrEqual(4);
    const text = `${log.join('\n')}\n${answer.body}`;
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('tag-1');
  });

  it('the log and the report of an exchange are there once its answer is (no line per exchange with logExchanges: false)', async () => {
    const lines: string[] = [];
    const quiet = await startProxy({
      upstream: upstream.url,
      port: 0,
      log: (line) => lines.push(line),
      logExchanges: false,
    });
    try {
      await call(`${quiet.url}${PLANTED.wrongType}`, { headers: V('2023-02-10') });
      await call(`${quiet.url}/stockrecords/7/`, { headers: V('2023-02-10') });
      // Read before asking the report (which would run what is queued): already logged.
      expect(lines).toEqual([
        expect.stringMatching(/^ {2}violation getStockRecord \[2023-02-10\] response body\.num_in_stock type/),
      ]);
      expect(quiet.report().exchanges).toBe(2);
    } finally {
      await quiet.close();
    }
  });
});

describe('upstream faults', () => {
  it('a slow upstream: 504 after --upstream-timeout, counted', async () => {
    const answer = await call(`${proxy.url}${PLANTED.slow}`, { headers: V('unstable') });
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 504, type: 'urn:store-admin-mock:gateway-timeout' });
    expect(JSON.parse(answer.body).detail).toContain('1500 ms');
    expect(proxy.report().timeouts).toBe(1);
  });

  it('an upstream 500 is passed through and counted (a status the contract does not declare)', async () => {
    const answer = await call(`${proxy.url}${PLANTED.serverError}`, { headers: V('unstable') });
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('{"error":"boom"}');
    const report = proxy.report();
    expect(report.upstream5xx).toBe(1);
    expect(operationOf(report, 'getTicket', 'unstable')?.byField).toContainEqual(
      expect.objectContaining({ side: 'response', field: 'status', rule: 'status' }),
    );
  });

  it('a redirect to another host is passed back, never followed (the other host sees nothing)', async () => {
    const answer = await call(`${proxy.url}${PLANTED.redirect}`, { headers: V('unstable') });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(`${new URL(other.url).origin}${PLANTED.redirect}`);
    expect(other.received).toEqual([]);
  });

  it('an unreachable upstream: 502 naming it', async () => {
    const dead = await startProxy({ upstream: 'http://127.0.0.1:9/api', port: 0 });
    const answer = await call(`${dead.url}/store/`, { headers: AUTH });
    await dead.close();
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'urn:store-admin-mock:bad-gateway' });
    expect(JSON.parse(answer.body).detail).toContain('http://127.0.0.1:9/api');
    expect(answer.body).not.toContain(TOKEN);
  });

  it('an answer over the size bound: 502, not passed through', async () => {
    const small = await startProxy({ upstream: upstream.url, port: 0, maxResponseBytes: 100 });
    const answer = await call(`${small.url}/tickets/1/`, { headers: V('unstable') });
    await small.close();
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'urn:store-admin-mock:upstream-response-too-large' });
  });
});

describe('--strict', () => {
  it("refuses an invalid request with the mock's 422 problem, never forwarding it", async () => {
    const strict = await startProxy({ upstream: upstream.url, port: 0, strict: true });
    const before = upstream.received.length;
    const answer = await call(`${strict.url}/fulfillment-orders/?status=bogus`, { headers: V('2024-04-01') });
    const unrouted = await call(`${strict.url}/tickets/1/`, { headers: V('2023-02-10') });
    const report = await strict.close();
    expect(upstream.received.length).toBe(before);
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toMatchObject({
      type: 'urn:store-admin-mock:invalid-request',
      operation: 'listFulfillmentOrders',
      validation: [expect.objectContaining({ field: 'query.status[0]', rule: 'enum' })],
    });
    expect(unrouted.status).toBe(400);
    expect(report.refused).toBe(2);
  });
});
