// paginate against a local node:http server serving pages linked by `next` URLs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminApiError, createAdminClient, cursorOf, OPERATIONS, paginate } from '../../src/client/index.ts';
import { json, startServer, type TestServer } from './server.ts';

let server: TestServer;
const client = () => createAdminClient({ baseUrl: server.url, token: 't', retry: false });

/** Serves `pages` (arrays of ids); page i links to cursor `c<i+1>`, or to `nextOf(i)` when given. */
function serve(pages: number[][], nextOf?: (index: number, base: string) => string | null | undefined) {
  server.handle((request, response) => {
    const cursor = request.query.get('cursor');
    const index = cursor ? Number(cursor.slice(1)) : 0;
    const base = `${server.url}${request.path}`;
    const next = nextOf
      ? nextOf(index, base)
      : index + 1 < pages.length
        ? `${base}?cursor=c${index + 1}&status=active`
        : null;
    const body: Record<string, unknown> = {
      previous: index ? `${base}?cursor=c${index - 1}` : null,
      results: (pages[index] ?? []).map((id) => ({ id, status: 'active' })),
    };
    if (next !== undefined) body.next = next;
    json(response, 200, body);
  });
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe('paginate', () => {
  it('yields every item of every page, following the cursor of next until it is null', async () => {
    serve([[1, 2], [3], [4, 5], [6]]);
    const ids: (number | null)[] = [];
    for await (const subscription of paginate(client(), '/subscriptions/', {
      params: { query: { status: ['active'] } },
    })) {
      ids.push(subscription.id);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/subscriptions/?status=active',
      '/subscriptions/?status=active&cursor=c1',
      '/subscriptions/?status=active&cursor=c2',
      '/subscriptions/?status=active&cursor=c3',
    ]);
    // Every page in the operation's default version (the first of the operation table).
    const version = OPERATIONS['GET /subscriptions/']?.[0];
    expect(server.requests.every((r) => r.headers['x-service-api-version'] === version)).toBe(true);
  });

  it('pages() yields whole pages', async () => {
    serve([[1, 2], [], [3]]);
    const pages = [];
    for await (const page of paginate(client(), '/fulfillment-orders/').pages()) pages.push(page);
    expect(pages.map((page) => page.results?.map((item) => item.id))).toEqual([[1, 2], [], [3]]);
    expect(pages[1]?.previous).toBe(`${server.url}/fulfillment-orders/?cursor=c0`);
  });

  it('stops when next is absent, or carries no cursor', async () => {
    serve([[1], [2]], (index, base) => (index === 0 ? `${base}?cursor=c1` : undefined));
    const ids = [];
    for await (const item of paginate(client(), '/assigned-fulfillment-orders/')) ids.push(item.id);
    expect(ids).toEqual([1, 2]);
    serve([[1], [2]], (_, base) => `${base}?page=2`);
    const only = [];
    for await (const item of paginate(client(), '/assigned-fulfillment-orders/')) only.push(item.id);
    expect(only).toEqual([1]);
  });

  it('follows relative next URLs, and keeps path parameters and the version', async () => {
    serve([[1], [2], [3]], (index) => (index < 2 ? `/subscriptions/7/transactions/?cursor=c${index + 1}` : null));
    const ids = [];
    for await (const transaction of paginate(client(), '/subscriptions/{id}/transactions/', {
      params: { path: { id: 7 } },
    })) {
      ids.push(transaction.id);
    }
    expect(ids).toEqual([1, 2, 3]);
    expect(server.requests.map((r) => r.path)).toEqual(Array(3).fill('/subscriptions/7/transactions/'));
  });

  it('walks a versioned client with that version', async () => {
    serve([[1], [2], [3]]);
    const ids = [];
    for await (const subscription of paginate(client().withVersion('2023-02-10'), '/subscriptions/'))
      ids.push(subscription.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(server.requests.map((r) => r.headers['x-service-api-version'])).toEqual(Array(3).fill('2023-02-10'));
  });

  it('starts from a given cursor', async () => {
    serve([[1], [2], [3]]);
    const ids = [];
    for await (const item of paginate(client(), '/subscriptions/', { params: { query: { cursor: 'c1' } } }))
      ids.push(item.id);
    expect(ids).toEqual([2, 3]);
  });

  it('refuses to loop on a repeated cursor', async () => {
    serve([[1], [2], [3]], (index, base) => `${base}?cursor=c${index === 2 ? 1 : index + 1}`);
    const ids: (number | null)[] = [];
    const walk = async () => {
      for await (const item of paginate(client(), '/subscriptions/')) ids.push(item.id);
    };
    await expect(walk()).rejects.toThrow('paginate /subscriptions/: page 3 points to cursor "c1" again');
    expect(ids).toEqual([1, 2, 3]);
    expect(server.requests).toHaveLength(3);
  });

  it('refuses a next page that points to the first given cursor', async () => {
    serve([[1], [2]], (_, base) => `${base}?cursor=c1`);
    const walk = async () => {
      for await (const _ of paginate(client(), '/subscriptions/', { params: { query: { cursor: 'c1' } } })) {
      }
    };
    await expect(walk()).rejects.toThrow(/cursor "c1" again/);
  });

  it('throws an AdminApiError for a failing page', async () => {
    server.handle((request, response) =>
      request.query.get('cursor')
        ? json(response, 500, { detail: 'down' })
        : json(response, 200, { next: `${server.url}/store/?cursor=x`, previous: null, results: [{ id: 1 }] }),
    );
    const ids: (number | null)[] = [];
    const walk = async () => {
      for await (const item of paginate(client(), '/subscriptions/')) ids.push(item.id);
    };
    await expect(walk()).rejects.toBeInstanceOf(AdminApiError);
    expect(ids).toEqual([1]);
  });

  it('stops asking for pages when the loop breaks', async () => {
    serve([[1, 2], [3], [4]]);
    for await (const item of paginate(client(), '/subscriptions/')) {
      if (item.id === 2) break;
    }
    expect(server.requests).toHaveLength(1);
  });
});

describe('cursorOf', () => {
  it('reads the cursor of absolute and relative URLs', () => {
    expect(cursorOf('https://shop.example.com/api/subscriptions/?cursor=cD0yMDI2&status=active')).toBe('cD0yMDI2');
    expect(cursorOf('/subscriptions/?cursor=a%2Bb')).toBe('a+b');
    expect(cursorOf('/subscriptions/?page=2')).toBeUndefined();
    expect(cursorOf(null)).toBeUndefined();
    expect(cursorOf('')).toBeUndefined();
  });
});
