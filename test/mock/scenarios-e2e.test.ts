// The unhappy paths end to end, through the package's client against a running mock: a token
// without the operation's scope (403, RFC 6750), a 429 with Retry-After honoured and bounded by the
// client's retries, a POST not retried, a 503 rule for one operation, a slow answer, a dropped
// connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminApiError, createAdminClient, unwrap } from '../../src/client/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';

let mock: MockServer;
const seen: string[] = [];
const requestsTo = (path: string) => seen.filter((line) => line.includes(` ${path} `)).length;

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    log: (line) => seen.push(line),
    scenarios: [{ operation: 'getStockRecord', fail: 503, retryAfter: 0 }],
  });
});
afterAll(() => mock?.close());

const jwt = (payload: object) =>
  ['{"alg":"none"}', JSON.stringify(payload), ''].map((part) => Buffer.from(part).toString('base64url')).join('.');
const client = (token = 'dev', retry: object | false = false) =>
  createAdminClient({ baseUrl: mock.url, token, retry: retry as never });

describe('scopes', () => {
  it.each([
    ['a readable token', 'scopes:store:read,orders:read'],
    ['a JWT with a scope claim', jwt({ scope: 'store:read orders:read' })],
  ])('%s calls what it holds and gets 403 naming the scope it lacks', async (_, token) => {
    const api = client(token);
    expect((await api.GET('/store/')).response.status).toBe(200);
    const result = await api.GET('/tickets/{id}/', { params: { path: { id: 1 } } });
    const { response, error } = result;
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="tickets:read"');
    expect(error).toMatchObject({
      status: 403,
      required_scopes: ['tickets:read'],
      validation: [{ field: 'header.Authorization', rule: 'scope' }],
    });
    expect(() => unwrap(result)).toThrow(AdminApiError);
  });

  it('a plain token holds every scope; a token without one still gets 401 first', async () => {
    expect((await client('dev').GET('/tickets/{id}/', { params: { path: { id: 1 } } })).response.status).toBe(200);
    const response = await fetch(`${mock.url}/tickets/1/`, { headers: { 'X-Service-API-Version': 'unstable' } });
    expect(response.status).toBe(401);
  });
});

describe('failure scenarios', () => {
  it('Prefer: fail=429: the client honours Retry-After for each retry, then gives the 429', async () => {
    const before = requestsTo('/store/');
    const started = performance.now();
    const { response, error } = await client('dev', { attempts: 3, baseDelay: 10 }).GET('/store/', {
      headers: { Prefer: 'fail=429, retry-after=1' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(error).toMatchObject({ status: 429, scenario: 'fail=429' });
    expect(requestsTo('/store/') - before).toBe(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
  });

  it('a Retry-After beyond the client bound is not waited for', async () => {
    const before = requestsTo('/store/');
    const { response } = await client('dev', { attempts: 3, maxRetryAfter: 500 }).GET('/store/', {
      headers: { Prefer: 'fail=503, retry-after=30' },
    });
    expect(response.status).toBe(503);
    expect(requestsTo('/store/') - before).toBe(1);
  });

  it('a POST is not retried', async () => {
    const before = requestsTo('/gift-cards/');
    const { response } = await client('dev', { attempts: 3, baseDelay: 10 }).POST('/gift-cards/', {
      body: { currency: 'EUR', initial: '10.00' },
      headers: { Prefer: 'fail=503, retry-after=0' },
    });
    expect(response.status).toBe(503);
    expect(requestsTo('/gift-cards/') - before).toBe(1);
  });

  it('a mock rule fails one operation only', async () => {
    const api = client();
    expect((await api.GET('/stockrecords/{id}/', { params: { path: { id: 1 } } })).response.status).toBe(503);
    expect((await api.GET('/store/')).response.status).toBe(200);
  });

  it('Prefer: delay=400 answers after 400 ms', async () => {
    const started = performance.now();
    const { response } = await client().GET('/store/', { headers: { Prefer: 'delay=400' } });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('Prefer: fail=drop closes the connection: a network error', async () => {
    await expect(client().GET('/store/', { headers: { Prefer: 'fail=drop' } })).rejects.toThrow();
  });

  it('a bad scenario token is refused, naming Prefer and the rule', async () => {
    const { response, error } = await client().GET('/store/', { headers: { Prefer: 'fail=418' } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(error)).toContain('use one of 429, 500, 503, drop');
    // Said once (issue 27: it read "Prefer: Prefer fail=418").
    expect(error).toMatchObject({ detail: 'Prefer: fail=418: use one of 429, 500, 503, drop.' });
    const delay = await client().GET('/store/', { headers: { Prefer: 'delay=soon' } });
    expect(delay.error).toMatchObject({ detail: 'Prefer: delay=soon: use a whole number from 0 to 60000.' });
  });

  // One parse of the header: a bad token anywhere in it refuses the request before a scenario acts.
  it.each([
    ['fail=429, code=abc', 'code must be an HTTP status code'],
    ['code=abc, fail=drop', 'code must be an HTTP status code'],
    ['delay=1; fail=500, example=', 'example needs a name'],
  ])('Prefer: %s is refused at once, naming the bad token', async (prefer, message) => {
    const { response, error } = await client().GET('/store/', { headers: { Prefer: prefer } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(error)).toContain(message);
    expect(JSON.stringify(error)).toContain('header.Prefer');
  });
});
