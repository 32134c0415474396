// The MSW handlers in Node (msw/node): the full mock with no process spawned, through the package's
// client: pagination to the end, filters, writes that persist, both subscription versions, reset,
// typed overrides, scopes and failure scenarios; and the same answers, byte for byte, as the
// HTTP server for one recorded session.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient, paginate } from '../../src/client/index.ts';
import { startMock } from '../../src/mock/index.ts';
import { createHandlers, override } from '../../src/msw/index.ts';

const BASE = 'http://api.test/admin';
const handlers = createHandlers({ baseUrl: BASE, pageSize: 10 });
const server = setupServer(...handlers);
const client = createAdminClient({ baseUrl: BASE, token: 'msw-test', retry: false });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  handlers.reset();
});
afterAll(() => server.close());

describe('createHandlers under msw/node', () => {
  it('walks every subscription to the end, each once, with next URLs under the base path', async () => {
    const ids: number[] = [];
    for await (const subscription of paginate(client, '/subscriptions/')) ids.push(subscription.id as number);
    expect(ids.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ids).size).toBe(ids.length);
    const { data } = await client.GET('/subscriptions/');
    expect(data?.next).toMatch(/^http:\/\/api\.test\/admin\/subscriptions\/\?cursor=/);
  });

  it('applies filters and serves one record by id', async () => {
    const { data } = await client.GET('/subscriptions/', { params: { query: { status: ['canceled'] } } });
    expect(data?.results?.length).toBeGreaterThan(0);
    expect(data?.results?.every((s) => s.status === 'canceled')).toBe(true);
    const ticket = await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } });
    expect(ticket.data?.id).toBe(7);
    const missing = await client.GET('/tickets/{id}/', { params: { path: { id: 99999 } } });
    expect(missing.response.status).toBe(404);
  });

  it('persists a write for the next read, and reset() forgets it', async () => {
    const patched = await client.PATCH('/tickets/{id}/', { params: { path: { id: 7 } }, body: { subject: 'via MSW' } });
    expect(patched.data?.subject).toBe('via MSW');
    expect((await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } })).data?.subject).toBe('via MSW');
    await handlers.reset();
    expect((await client.GET('/tickets/{id}/', { params: { path: { id: 7 } } })).data?.subject).not.toBe('via MSW');
  });

  it('reset() is atomic: a write in flight when it is called (Prefer: delay) is refused, never applied after it', async () => {
    const ticket = { params: { path: { id: 8 } } };
    const before = (await client.GET('/tickets/{id}/', ticket)).data?.subject;
    const late = client.PATCH('/tickets/{id}/', {
      ...ticket,
      body: { subject: 'late' },
      headers: { Prefer: 'delay=1000' },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await handlers.reset();
    const { response, error } = await late;
    expect(response.status).toBe(409);
    expect(JSON.stringify(error)).toContain('reset-conflict');
    expect((await client.GET('/tickets/{id}/', ticket)).data?.subject).toBe(before);
  });

  it('snapshot(name) and restore(name) bring a state back', async () => {
    const ticket = { params: { path: { id: 9 } } };
    await client.PATCH('/tickets/{id}/', { ...ticket, body: { subject: 'logged in, cart full' } });
    await handlers.snapshot('cart-full');
    await client.PATCH('/tickets/{id}/', { ...ticket, body: { subject: 'checked out' } });
    expect(await handlers.restore('cart-full')).toBe(true);
    expect((await client.GET('/tickets/{id}/', ticket)).data?.subject).toBe('logged in, cart full');
  });

  it('shows one subscription in each version shape', async () => {
    const now = await client.GET('/subscriptions/');
    const old = await client.withVersion('2023-02-10').GET('/subscriptions/');
    const [a, b] = [now.data?.results?.[0], old.data?.results?.[0]];
    expect(b?.id).toBe(a?.id);
    expect(a?.lines?.[0]).toHaveProperty('product_title');
    expect(b?.lines?.[0]).toHaveProperty('product');
  });

  it('refuses a bad request naming the field', async () => {
    const { response, error } = await client.POST('/gift-cards/', { body: { currency: 'EURO', initial: '5.00' } });
    expect(response.status).toBe(422);
    expect(JSON.stringify(error)).toContain('body.currency');
  });

  it('asks for the hard cases in one line: a missing scope, a 429, a slow answer', async () => {
    const scoped = createAdminClient({ baseUrl: BASE, token: 'scopes:store:read', retry: false });
    expect((await scoped.GET('/tickets/{id}/', { params: { path: { id: 1 } } })).response.status).toBe(403);
    const limited = await client.GET('/store/', { headers: { Prefer: 'fail=429' } });
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).toBe('1');
    const started = performance.now();
    await client.GET('/store/', { headers: { Prefer: 'delay=200' } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('coverage(): what the requests through the handlers exercised, per token state; coverage.reset() forgets', async () => {
    handlers.coverage.reset();
    await client.GET('/tickets/{id}/', { params: { path: { id: 99999 } } });
    await client.GET('/store/', { headers: { Prefer: 'fail=503' } });
    const report = handlers.coverage();
    expect(report.requests).toBe(2);
    const hit = report.operations.flatMap((o) =>
      o.items.filter((i) => i.count > 0).map((i) => `${o.operation} ${i.dimension} ${i.name} × ${i.count}`),
    );
    expect(hit).toEqual(['getStore status 503 × 1', 'getStore scenario fail=503 × 1', 'getTicket status 404 × 1']);
    expect(handlers.coverage('msw-test').covered).toBe(3);
    expect(handlers.coverage('another-token').covered).toBe(0);
    handlers.coverage.reset();
    expect(handlers.coverage().requests).toBe(0);
  });

  it('replaces one operation with a typed override, the engine answering the rest', async () => {
    const local = createHandlers({
      baseUrl: BASE,
      overrides: [
        override('get', '/tickets/{id}/', async ({ params, next }) => {
          const ticket = await (await next()).json();
          return { ...ticket, id: params.id, subject: `override ${params.id}` };
        }),
      ],
    });
    server.use(...local);
    expect((await client.GET('/tickets/{id}/', { params: { path: { id: 3 } } })).data?.subject).toBe('override 3');
    expect((await client.GET('/store/')).response.status).toBe(200);
  });
});

describe('the client with its default retries under msw/node (issue #27)', () => {
  // Before the fix the client awaited the cancel of the retried response's body, which msw/node's
  // body never settles: no retry event, no deadline, the call pending until the runner's timeout.
  const rows = [
    { name: 'Prefer: fail=429', prefer: 'fail=429, retry-after=0', status: 429 },
    { name: 'Prefer: fail=503', prefer: 'fail=503, retry-after=0', status: 503 },
    { name: 'a 429 override', prefer: undefined, status: 429 },
  ];
  it.each(rows)('$name: retried twice, then the $status is answered', { timeout: 10_000 }, async (row) => {
    if (!row.prefer) {
      const limited = () => new Response('{}', { status: 429, headers: { 'Retry-After': '0' } });
      server.use(...createHandlers({ baseUrl: BASE, overrides: [override('get', '/store/', limited)] }));
    }
    const attempts: number[] = [];
    const retrying = createAdminClient({
      baseUrl: BASE,
      token: 'msw-retry',
      timeout: 5000,
      retry: { onRetry: ({ attempt }) => attempts.push(attempt) },
    });
    const headers = row.prefer ? { Prefer: row.prefer } : {};
    const { response } = await retrying.GET('/store/', { headers });
    expect(response.status).toBe(row.status);
    expect(attempts).toEqual([1, 2]);
  });

  it('the deadline ends a call whose retry waits longer than it (Retry-After: 1, timeout 300 ms)', {
    timeout: 10_000,
  }, async () => {
    const retrying = createAdminClient({ baseUrl: BASE, token: 'msw-retry', timeout: 300 });
    const started = performance.now();
    const outcome = await retrying.GET('/store/', { headers: { Prefer: 'fail=429' } }).then(
      ({ response }) => response.status,
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(3000);
  });
  it('the deadline ends a call whose body never ends (an override streaming forever)', {
    timeout: 10_000,
  }, async () => {
    const endless = () =>
      new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{')) }), {
        headers: { 'Content-Type': 'application/json' },
      });
    server.use(...createHandlers({ baseUrl: BASE, overrides: [override('get', '/store/', endless)] }));
    const retrying = createAdminClient({ baseUrl: BASE, token: 'msw-retry', timeout: 300 });
    const started = performance.now();
    const outcome = await retrying.GET('/store/').then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('the same session through the HTTP server and the MSW handlers', () => {
  const now = () => new Date('2026-01-02T03:04:05Z');
  const session: [string, string, Record<string, string>, unknown?][] = [
    ['GET', '/subscriptions/?status=active&status=past_due', {}],
    ['GET', '/subscriptions/', { 'X-Service-API-Version': '2023-02-10' }],
    ['PATCH', '/tickets/7/', {}, { subject: 'recorded', status: 'solved' }],
    ['GET', '/tickets/7/', {}],
    ['POST', '/gift-cards/', {}, { currency: 'EUR', initial: '25.00' }],
    ['POST', '/gift-cards/', {}, { currency: 'EURO', initial: '25.00' }],
    ['GET', '/stockrecords/999/', {}],
    ['GET', '/store/', { Prefer: 'fail=503' }],
    ['GET', '/fulfillment-orders/?cursor=not-a-cursor', {}],
    ['POST', '/subscriptions/3/renew/', {}],
    ['GET', '/store/', { 'X-Service-API-Version': '1999-01-01' }],
  ];
  const IGNORED = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

  async function record(baseUrl: string) {
    const answers: string[] = [];
    for (const [method, path, headers, body] of session) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { Authorization: 'Bearer replay', 'Content-Type': 'application/json', ...headers },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const kept = [...response.headers].filter(([name]) => !IGNORED.has(name)).sort();
      answers.push(`${method} ${path} ${response.status} ${JSON.stringify(kept)}\n${await response.text()}`);
    }
    return answers;
  }

  it('gives the same status, headers and body bytes', async () => {
    const mock = await startMock({ port: 0, now });
    let overHttp: string[];
    try {
      server.close(); // the real network for this part
      overHttp = await record(mock.url);
    } finally {
      await mock.close();
    }
    const replay = setupServer(...createHandlers({ baseUrl: mock.url, now }));
    replay.listen({ onUnhandledRequest: 'error' });
    try {
      const overMsw = await record(mock.url);
      expect(overMsw).toEqual(overHttp);
      expect(overHttp.filter((a) => / 200 /.test(a.split('\n')[0] ?? '')).length).toBeGreaterThan(4);
    } finally {
      replay.close();
      server.listen({ onUnhandledRequest: 'error' });
    }
  });
});
