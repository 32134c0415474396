// Retries, timeouts and abort against a local node:http server. No timing assertions: waits are
// observed through `onRetry` and request counts; backoffs are set to a millisecond.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAdminClient, type RetryEvent, retryAfterMs } from '../../src/client/index.ts';
import { backoffMs, DEFAULT_RETRY } from '../../src/client/retry.ts';
import { json, startServer, type TestServer } from './server.ts';

let server: TestServer;
let events: RetryEvent[];
const fast = () => ({ baseDelay: 1, maxDelay: 2, onRetry: (event: RetryEvent) => void events.push(event) });
const client = () => createAdminClient({ baseUrl: server.url, token: 't', retry: fast() });

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  events = [];
});

/** Answers `status` (with `headers`) to the first `failures` requests, then 200. */
const failFirst = (failures: number, status: number, headers: Record<string, string> = {}) =>
  server.handle((_, response, index) =>
    index < failures ? json(response, status, { detail: 'busy' }, headers) : json(response, 200, [{ name: 'Shop' }]),
  );

describe('retries', () => {
  it('honours Retry-After in seconds', async () => {
    failFirst(1, 429, { 'Retry-After': '1' });
    const { data, response } = await client().GET('/store/');
    expect(response.status).toBe(200);
    expect(data).toEqual([{ name: 'Shop' }]);
    expect(server.requests).toHaveLength(2);
    expect(events).toMatchObject([{ attempt: 1, delay: 1000, method: 'GET' }]);
    expect(events[0]?.response?.status).toBe(429);
  });

  it('honours Retry-After as an HTTP date', async () => {
    failFirst(1, 503, { 'Retry-After': new Date(Date.now() - 5000).toUTCString() });
    const { response } = await client().GET('/store/');
    expect(response.status).toBe(200);
    expect(events).toMatchObject([{ attempt: 1, delay: 0 }]);
  });

  it('reads Retry-After values', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('backs off exponentially, capped, with jitter', () => {
    const options = { baseDelay: 100, maxDelay: 1000 };
    for (let i = 0; i < 20; i++) {
      expect(backoffMs(1, options)).toBeGreaterThanOrEqual(50);
      expect(backoffMs(1, options)).toBeLessThanOrEqual(100);
      expect(backoffMs(3, options)).toBeGreaterThanOrEqual(200);
      expect(backoffMs(3, options)).toBeLessThanOrEqual(400);
      expect(backoffMs(10, options)).toBeLessThanOrEqual(1000);
      expect(backoffMs(10, options)).toBeGreaterThanOrEqual(500);
    }
    expect(DEFAULT_RETRY).toMatchObject({ attempts: 3, statuses: [429, 503] });
  });

  it('bounds the attempts and returns the last response', async () => {
    failFirst(10, 503);
    const { response, error } = await client().GET('/store/');
    expect(response.status).toBe(503);
    expect(error).toEqual({ detail: 'busy' });
    expect(server.requests).toHaveLength(DEFAULT_RETRY.attempts);
    expect(events.map((e) => e.attempt)).toEqual([1, 2]);
  });

  it('takes the attempts of the call over the client’s', async () => {
    failFirst(10, 429);
    await client().GET('/store/', { retry: { attempts: 5, ...fast() } });
    expect(server.requests).toHaveLength(5);
    server.requests.length = 0;
    await client().GET('/store/', { retry: false });
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry other statuses', async () => {
    failFirst(1, 500);
    const { response } = await client().GET('/store/');
    expect(response.status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('does not wait for a Retry-After beyond maxRetryAfter', async () => {
    failFirst(1, 429, { 'Retry-After': '3600' });
    const { response } = await client().GET('/store/');
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry POST by default', async () => {
    failFirst(1, 429, { 'Retry-After': '0' });
    const { response } = await client().POST('/gift-cards/', { body: { currency: 'EUR', initial: '10.00' } });
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it('retries POST when opted in, sending the same body again', async () => {
    failFirst(2, 503, { 'Retry-After': '0' });
    const { response } = await client().POST('/gift-cards/', {
      body: { currency: 'EUR', initial: '10.00' },
      retry: { ...fast(), methods: ['POST'] },
    });
    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.body)).toEqual(Array(3).fill('{"currency":"EUR","initial":"10.00"}'));
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer t', 'Bearer t', 'Bearer t']);
  });

  it('calls a token function once per call: the retries resend its token', async () => {
    failFirst(2, 503);
    let issued = 0;
    const rotating = createAdminClient({ baseUrl: server.url, token: async () => `t${++issued}`, retry: fast() });
    const { response } = await rotating.GET('/store/');
    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t1']);
  });

  it('retries PUT (idempotent) with its body', async () => {
    failFirst(1, 503);
    const { response } = await client().PUT('/pages/{id}/', { params: { path: { id: 2 } }, body: { title: 'T' } });
    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.body)).toEqual(['{"title":"T"}', '{"title":"T"}']);
  });

  it('retries network errors of idempotent requests', async () => {
    server.handle((_, response, index) => {
      if (index < 2) response.socket?.destroy();
      else json(response, 200, []);
    });
    const { response } = await client().GET('/store/');
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(3);
    expect(events.map((e) => e.error)).toEqual([expect.any(TypeError), expect.any(TypeError)]);
  });

  it('rethrows a network error once the attempts are spent, and at once for POST', async () => {
    server.handle((_, response) => void response.socket?.destroy());
    await expect(client().GET('/store/')).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(3);
    server.requests.length = 0;
    await expect(client().POST('/gift-cards/', { body: { currency: 'EUR', initial: '1' } })).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('timeouts and abort', () => {
  const hang = () => server.handle(() => {});

  it('rejects with a TimeoutError after the client timeout', async () => {
    hang();
    const slow = createAdminClient({ baseUrl: server.url, token: 't', timeout: 50 });
    await expect(slow.GET('/store/')).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('takes the timeout of the call over the client’s', async () => {
    hang();
    const slow = createAdminClient({ baseUrl: server.url, token: 't', timeout: 60_000 });
    await expect(slow.GET('/store/', { timeout: 30 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('bounds the retries and their waits by the timeout', async () => {
    failFirst(10, 503, { 'Retry-After': '30' });
    // The deadline (3 s) is far beyond one local round trip, even on a loaded machine, and far below
    // the 30 s Retry-After.
    const slow = createAdminClient({ baseUrl: server.url, token: 't', timeout: 3000, retry: fast() });
    await expect(slow.GET('/store/')).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(server.requests).toHaveLength(1);
    expect(events).toMatchObject([{ delay: 30_000 }]);
  });

  it('honours an AbortSignal during a request', async () => {
    hang();
    const controller = new AbortController();
    const pending = client().GET('/store/', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('honours an AbortSignal during a wait, with its reason, and sends nothing more', async () => {
    failFirst(10, 503, { 'Retry-After': '30' });
    const controller = new AbortController();
    const pending = client().GET('/store/', { signal: controller.signal, timeout: 60_000 });
    while (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
    expect(server.requests).toHaveLength(1);
  });

  it('does not send an already aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client().GET('/store/', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });
});
