// The client refuses to be steered by hostile input (issue #13 item 3). Two local servers are two
// origins: `api` (the client's baseUrl) and `other`. Every case asserts the exact error (class,
// code, status) and what each server received; `other` must never receive anything, token least.
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AdminApiError,
  AdminClientError,
  createAdminClient,
  MAX_PAGES,
  MAX_RESPONSE_BYTES,
  paginate,
  unwrap,
} from '../../src/client/index.ts';
import { json, startServer, type TestServer } from '../client/server.ts';

let api: TestServer;
let other: TestServer;
const TOKEN = 'secret-token';
const client = (extra: Record<string, unknown> = {}) =>
  createAdminClient({ baseUrl: `${api.url}/api/admin`, token: TOKEN, retry: false, ...extra });

/** The error a call rejects with (fails the test when it resolves). */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

beforeAll(async () => {
  [api, other] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => {
  await Promise.all([api.close(), other.close()]);
});
beforeEach(() => {
  api.requests.length = 0;
  other.requests.length = 0;
  api.handle((_, response) => json(response, 200, { id: 1 }));
  other.handle((_, response) => json(response, 200, { stolen: true }));
});
afterEach(() => {
  // Whatever the case, the other origin never got a request, so never the token.
  expect(other.requests).toEqual([]);
});

describe('path parameters', () => {
  // Values that would change the path (or are no value): refused before any request.
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['.', '".", a dot segment that would change the path'],
    ['..', '"..", a dot segment that would change the path'],
    [undefined, 'empty'],
    [null, 'empty'],
    [Number.NaN, 'not a string or number (NaN)'],
    [Number.POSITIVE_INFINITY, 'not a string or number (Infinity)'],
    [{ toString: () => '..' }, 'not a string or number (..)'],
    [['..'], 'not a string or number (..)'],
    [true, 'not a string or number (true)'],
    ['\uD800', 'not valid Unicode'],
  ])('refuses %j with an AdminClientError, sending nothing', async (value, reason) => {
    const error = await rejection(() =>
      client().PATCH('/tickets/{id}/', { params: { path: { id: value as never } }, body: { status: 'solved' } }),
    );
    expect(error).toBeInstanceOf(AdminClientError);
    expect(error).toMatchObject({
      code: 'path-parameter',
      method: 'PATCH',
      url: '/tickets/{id}/',
      message: `PATCH /tickets/{id}/: path parameter \`id\` is ${reason}; nothing was sent`,
    });
    expect(api.requests).toEqual([]);
  });

  // Everything else is one encoded segment: the server sees /api/admin/tickets/<value>/, no other path.
  it.each([
    '/',
    '../..',
    '../../../api',
    '%2e%2e',
    '%2E.',
    '.%2e',
    '..%2f',
    '%2f',
    '?x=1',
    '#frag',
    'a/b',
    '..;',
    '\\..',
    ' .. ',
    '...',
    '{id}',
    '%',
    'é€',
    '\u0000\r\n',
    '42',
  ])('encodes %j as one segment of the same path', async (value) => {
    const { response } = await client().PATCH('/tickets/{id}/', {
      params: { path: { id: value as never } },
      body: { status: 'solved' },
    });
    expect(response.status).toBe(200);
    expect(api.requests).toHaveLength(1);
    const [request] = api.requests;
    expect(request?.method).toBe('PATCH');
    const match = request?.url.match(/^\/api\/admin\/tickets\/([^/?#]+)\/$/);
    expect(match, request?.url).not.toBeNull();
    expect(decodeURIComponent(match?.[1] ?? '')).toBe(value);
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('encodes numbers and keeps the other parameters of the call', async () => {
    await client().GET('/orders/{number}/fulfillments/', { params: { path: { number: '100234' } } });
    await client().POST('/subscriptions/{id}/renew/', { params: { path: { id: 7 } } });
    expect(api.requests.map((r) => r.url)).toEqual([
      '/api/admin/orders/100234/fulfillments/',
      '/api/admin/subscriptions/7/renew/',
    ]);
  });
});

describe('redirects', () => {
  const redirect = (status: number, location: () => string) =>
    api.handle((request, response) => {
      if (request.path.endsWith('/moved/')) return json(response, 200, [{ name: 'Moved' }]);
      response.writeHead(status, { Location: location(), 'Content-Length': '0' }).end();
    });

  // [case, status, method, target]: every one refused, nothing sent to the target.
  it.each([
    ['a cross-origin 307 of a POST with a body', 307, 'POST', 'other'],
    ['a cross-origin 308 of a PUT with a body', 308, 'PUT', 'other'],
    ['a cross-origin 302 of a GET', 302, 'GET', 'other'],
    ['a cross-origin 301 of a GET', 301, 'GET', 'other'],
    ['a cross-origin 303 of a PATCH', 303, 'PATCH', 'other'],
    ['a protocol-relative 302 to another host', 302, 'GET', 'protocol-relative'],
    ['a same-origin 307 of a POST with a body', 307, 'POST', 'same'],
    ['a same-origin 303 of a PATCH', 303, 'PATCH', 'same'],
  ] as const)('refuses %s', async (_, status, method, target) => {
    const location =
      target === 'other'
        ? `${other.url}/steal/`
        : target === 'protocol-relative'
          ? `//${new URL(other.url).host}/steal/`
          : `${api.url}/api/admin/moved/`;
    redirect(status, () => location);
    const c = client();
    const calls = {
      GET: () => c.GET('/store/'),
      POST: () => c.POST('/gift-cards/', { body: { currency: 'EUR', initial: '10.00' } }),
      PUT: () => c.PUT('/pages/{id}/', { params: { path: { id: 1 } }, body: { title: 'T' } }),
      PATCH: () => c.PATCH('/tickets/{id}/', { params: { path: { id: 1 } }, body: { status: 'solved' } }),
    };
    const error = await rejection(calls[method]);
    expect(error).toBeInstanceOf(AdminClientError);
    expect(error).toMatchObject({ code: 'redirect', status, method, location });
    expect(api.requests).toHaveLength(1);
  });

  it('follows a same-origin redirect of a GET, with the token, to the same origin only', async () => {
    redirect(301, () => '/api/admin/moved/');
    const stores = unwrap(await client().GET('/store/'));
    expect(stores).toEqual([{ name: 'Moved' }]);
    expect(api.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/api/admin/store/', `Bearer ${TOKEN}`],
      ['/api/admin/moved/', `Bearer ${TOKEN}`],
    ]);
  });

  it('gives up after 5 same-origin redirects', async () => {
    redirect(302, () => `${api.url}/api/admin/store/`);
    const error = await rejection(() => client().GET('/store/'));
    expect(error).toMatchObject({ name: 'AdminClientError', code: 'redirect', status: 302 });
    expect(api.requests).toHaveLength(6);
  });

  it('cannot be told to follow: a call’s `redirect` option is not passed on', async () => {
    redirect(307, () => `${other.url}/steal/`);
    const error = await rejection(() => client().GET('/store/', { redirect: 'follow' } as never));
    expect(error).toMatchObject({ code: 'redirect', status: 307 });
  });

  it('refuses a browser’s opaque redirect (status 0, no Location), sending nothing more', async () => {
    const requests: string[] = [];
    const c = client({
      fetch: async (request: Request) => {
        requests.push(request.url);
        // What a browser's fetch returns for `redirect: 'manual'`; Node's Response cannot be built so.
        return Object.defineProperties(new Response(null), {
          type: { value: 'opaqueredirect' },
          status: { value: 0 },
        });
      },
    });
    const error = await rejection(() => c.GET('/store/'));
    expect(error).toBeInstanceOf(AdminClientError);
    expect(error).toMatchObject({ code: 'redirect', status: 0, location: '' });
    expect(requests).toEqual([`${api.url}/api/admin/store/`]);
  });

  it('cannot be told to follow by the custom fetch either: it gets manual-redirect requests', async () => {
    redirect(302, () => `${other.url}/steal/`);
    const modes: string[] = [];
    const c = client({
      fetch: (request: Request) => {
        modes.push(request.redirect);
        return fetch(request);
      },
    });
    await expect(c.GET('/store/')).rejects.toMatchObject({ code: 'redirect' });
    expect(modes).toEqual(['manual']);
  });
});

describe('response bodies', () => {
  const answer = (status: number, headers: Record<string, string>, body: string | Buffer) =>
    api.handle((_, response) => {
      response.writeHead(status, headers).end(body);
    });

  // [case, status, headers, body, expected content type]: success bodies that are not JSON.
  it.each([
    ['HTML', 200, { 'Content-Type': 'text/html; charset=utf-8' }, '<html>oops</html>', 'text/html; charset=utf-8'],
    ['plain text', 201, { 'Content-Type': 'text/plain' }, 'created', 'text/plain'],
    ['HTML labelled JSON', 200, { 'Content-Type': 'application/json' }, '<html>oops</html>', 'application/json'],
    ['no content type, not JSON', 200, {}, 'hello', ''],
    ['truncated JSON', 200, { 'Content-Type': 'application/json' }, '{"id": 1', 'application/json'],
    ['XML', 200, { 'Content-Type': 'application/xml' }, '<a/>', 'application/xml'],
  ])('refuses a 2xx %s body with AdminClientError not-json', async (_, status, headers, body, contentType) => {
    answer(status, headers, body);
    const error = await rejection(() => client().GET('/store/'));
    expect(error).toBeInstanceOf(AdminClientError);
    expect(error).toMatchObject({ code: 'not-json', status, contentType, method: 'GET' });
    expect((error as AdminClientError).url).toBe(`${api.url}/api/admin/store/`);
    expect((error as Error).message).toMatch(new RegExp(`^GET ${api.url}/api/admin/store/: the ${status} response`));
  });

  it.each([
    ['application/problem+json', '{"a":1}', { a: 1 }],
    ['application/vnd.api+json; charset=utf-8', '[1]', [1]],
    ['APPLICATION/JSON', '{}', {}],
  ])('reads JSON media types (%s)', async (contentType, body, data) => {
    answer(200, { 'Content-Type': contentType }, body);
    expect((await client().GET('/store/')).data).toEqual(data);
  });

  it('keeps a non-2xx HTML body as the AdminApiError body', async () => {
    answer(502, { 'Content-Type': 'text/html' }, '<html>bad gateway</html>');
    const result = await client().GET('/store/');
    expect(() => unwrap(result)).toThrow(AdminApiError);
    expect(result.error).toBe('<html>bad gateway</html>');
  });

  it('reads an empty 204 and an empty 200', async () => {
    answer(204, {}, '');
    expect((await client().GET('/store/')).response.status).toBe(204);
    answer(200, { 'Content-Type': 'text/html', 'Content-Length': '0' }, '');
    expect((await client().GET('/store/')).data).toBeUndefined();
  });

  const big = 'x'.repeat(5000);
  // [case, status, headers, body]: bodies above maxResponseBytes (1000 here).
  it.each([
    [
      'with Content-Length',
      200,
      { 'Content-Type': 'application/json', 'Content-Length': '5004' },
      JSON.stringify([big]),
    ],
    [
      'chunked (no Content-Length)',
      200,
      { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      JSON.stringify([big]),
    ],
    [
      'gzip, small on the wire',
      200,
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      gzipSync(JSON.stringify([big])),
    ],
    ['of an error response', 500, { 'Content-Type': 'text/plain', 'Content-Length': '5000' }, big],
    ['of an error response, chunked', 503, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' }, big],
  ])('refuses a body above maxResponseBytes %s with AdminClientError too-large', async (_, status, headers, body) => {
    answer(status, headers, body);
    const error = await rejection(() => client({ maxResponseBytes: 1000 }).GET('/store/'));
    expect(error).toBeInstanceOf(AdminClientError);
    expect(error).toMatchObject({ code: 'too-large', status, limit: 1000, method: 'GET' });
  });

  it('takes the limit of the call over the client’s, and reads a body at the limit', async () => {
    const body = JSON.stringify([big]);
    answer(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, body);
    expect((await client({ maxResponseBytes: 1000 }).GET('/store/', { maxResponseBytes: body.length })).data).toEqual([
      big,
    ]);
    await expect(client().GET('/store/', { maxResponseBytes: body.length - 1 })).rejects.toMatchObject({
      code: 'too-large',
      limit: body.length - 1,
    });
  });

  it('has a 50 MiB default', () => {
    expect(MAX_RESPONSE_BYTES).toBe(50 * 1024 * 1024);
  });
});

describe('pagination', () => {
  /** A server that invents a new cursor for every page, forever. */
  const endless = () =>
    api.handle((request, response) => {
      const n = Number(request.query.get('cursor') ?? 0) + 1;
      json(response, 200, { next: `${other.url}/steal/?cursor=${n}`, previous: null, results: [{ id: n }] });
    });

  it('stops at maxPages with AdminClientError too-many-pages, asking only its own origin', async () => {
    endless();
    const ids: unknown[] = [];
    const error = await rejection(async () => {
      for await (const item of paginate(client(), '/subscriptions/', { maxPages: 5 })) ids.push(item.id);
    });
    expect(error).toBeInstanceOf(AdminClientError);
    expect(error).toMatchObject({ code: 'too-many-pages', limit: 5, method: 'GET', url: '/subscriptions/' });
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(api.requests.map((r) => r.path)).toEqual(Array(5).fill('/api/admin/subscriptions/'));
  });

  it('sends a hostile cursor as one encoded query value, on the same path', async () => {
    const cursor = 'a&status=all#/../../users/?x=';
    api.handle((request, response) =>
      json(response, 200, {
        next: request.query.get('cursor') ? null : `${other.url}/x/?cursor=${encodeURIComponent(cursor)}`,
        results: [],
      }),
    );
    for await (const _ of paginate(client(), '/subscriptions/').pages()) {
    }
    expect(api.requests.map((r) => r.url)).toEqual([
      '/api/admin/subscriptions/',
      `/api/admin/subscriptions/?cursor=${encodeURIComponent(cursor)}`,
    ]);
    expect(api.requests[1]?.query.get('cursor')).toBe(cursor);
  });

  it('stops at 1000 pages by default', async () => {
    let pages = 0;
    const canned = createAdminClient({
      baseUrl: 'http://api.invalid',
      token: TOKEN,
      fetch: async (request) => {
        pages++;
        const n = Number(new URL(request.url).searchParams.get('cursor') ?? 0) + 1;
        return Response.json({ next: `/subscriptions/?cursor=${n}`, previous: null, results: [] });
      },
    });
    const error = await rejection(async () => {
      for await (const _ of paginate(canned, '/subscriptions/').pages()) {
      }
    });
    expect(MAX_PAGES).toBe(1000);
    expect(error).toMatchObject({ code: 'too-many-pages', limit: 1000 });
    expect(pages).toBe(1000);
  });

  it('stops on a cursor seen before with AdminClientError cursor-loop', async () => {
    api.handle((_, response) => json(response, 200, { next: '/subscriptions/?cursor=same', results: [] }));
    const error = await rejection(async () => {
      for await (const _ of paginate(client(), '/subscriptions/')) {
      }
    });
    expect(error).toMatchObject({ name: 'AdminClientError', code: 'cursor-loop' });
    expect(api.requests).toHaveLength(2);
  });
});
