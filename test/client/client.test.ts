// The client against a local node:http server: creation checks, the headers of every operation,
// versions, path parameters and the error shapes.
import type { Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redoclyApis } from '../../scripts/lib/redocly-apis.ts';
import {
  AdminApiError,
  type AdminClient,
  type AdminPaths,
  createAdminClient,
  OPERATIONS,
  unwrap,
  VERSION_HEADER,
  VERSIONS,
} from '../../src/client/index.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { callEveryOperation } from './fixtures/every-operation.ts';
import { json, startServer, type TestServer } from './server.ts';

let server: TestServer;
let client: AdminClient<AdminPaths>;
const header = VERSION_HEADER.toLowerCase();
/** The default version of `GET /store/`, the operation these tests call with no version given. */
const STORE_VERSION = OPERATIONS['GET /store/']?.[0];
/** The default (first) version of an operation: a new API version serving it changes no test here. */
const defaultOf = (operation: string) => OPERATIONS[operation]?.[0];

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.handle((_, response) => json(response, 200, {}));
  client = createAdminClient({ baseUrl: server.url, token: 'test-token', retry: false });
});

describe('createAdminClient', () => {
  it.each([
    [{ token: 't' }, /`baseUrl` is required/],
    [{ baseUrl: '  ', token: 't' }, /`baseUrl` is required/],
    [{ baseUrl: 'http://x' }, /`token` is required/],
    [{ baseUrl: 'http://x', token: '' }, /`token` is required/],
    [{ baseUrl: 'http://x', token: 42 }, /`token` is required/],
  ])('refuses %j with a clear message', (options, message) => {
    expect(() => createAdminClient(options as never)).toThrow(message);
  });

  it('refuses no options at all', () => {
    expect(() => createAdminClient(undefined as never)).toThrow(/`baseUrl` is required/);
  });
});

describe('headers', () => {
  it('sends every operation with the bearer token and its default version (spec §9)', async () => {
    const results = await callEveryOperation(client);
    expect(results.every((result) => result.response.status === 200)).toBe(true);
    expect(server.requests).toHaveLength(SPEC_OPERATIONS.length);
    for (const [index, operation] of SPEC_OPERATIONS.entries()) {
      const request = server.requests[index];
      const path = operation.path.replace('{id}', '1').replace('{number}', '100234');
      expect({ method: request?.method, path: request?.path }).toEqual({
        method: operation.method.toUpperCase(),
        path,
      });
      expect(request?.headers.authorization).toBe('Bearer test-token');
      expect(request?.headers[header], `${operation.method} ${operation.path}`).toBe(operation.versions[0]);
    }
  });

  it('knows the versions of each operation from the bundles, as the spec inventory lists them', () => {
    const fromSpec = Object.fromEntries(
      SPEC_OPERATIONS.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.versions]),
    );
    expect(OPERATIONS).toEqual(fromSpec);
    // The versions are those the spec inventory names and redocly.yaml builds, in its order (the
    // order of precedence): a version the build dropped, or one built but unknown to the spec, fails.
    expect([...VERSIONS].sort()).toEqual([...new Set(SPEC_OPERATIONS.flatMap((o) => o.versions))].sort());
    expect(VERSIONS).toEqual(redoclyApis().map((api) => api.version));
  });

  it('sends JSON bodies and form-exploded query arrays', async () => {
    await client.GET('/subscriptions/', { params: { query: { status: ['active', 'paused'], search_text: 'a b' } } });
    await client.PUT('/pages/{id}/', { params: { path: { id: 9 } }, body: { title: 'About us' } });
    expect(server.requests[0]?.url).toBe('/subscriptions/?status=active&status=paused&search_text=a%20b');
    expect(server.requests[1]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[1]?.body ?? '')).toEqual({ title: 'About us' });
  });

  it('calls a token function for every request (rotation)', async () => {
    let issued = 0;
    const rotating = createAdminClient({ baseUrl: server.url, token: async () => `token-${++issued}` });
    await rotating.GET('/store/');
    await rotating.GET('/store/');
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('refuses a request whose token function returns no token, before sending', async () => {
    const broken = createAdminClient({ baseUrl: server.url, token: () => '' });
    await expect(broken.GET('/store/')).rejects.toThrow(/returned no token/);
    expect(server.requests).toHaveLength(0);
  });

  it('sends extra headers, but the token and version header stay the client’s', async () => {
    const custom = createAdminClient({
      baseUrl: `${server.url}/`,
      token: 't',
      headers: { 'X-Trace': 'abc', Authorization: 'Basic nope', [VERSION_HEADER]: '1999-01-01' },
    });
    await custom.GET('/store/', { headers: { 'X-Call': '1' } });
    expect(server.requests[0]?.path).toBe('/store/');
    expect(server.requests[0]?.headers).toMatchObject({
      'x-trace': 'abc',
      'x-call': '1',
      authorization: 'Bearer t',
      [header]: STORE_VERSION,
    });
  });

  it('lets middleware see the final request', async () => {
    const seen: string[] = [];
    client.use({ onRequest: ({ request }) => void seen.push(request.headers.get(VERSION_HEADER) ?? '') });
    await client.GET('/tickets/{id}/', { params: { path: { id: 3 } } });
    await client.withVersion('2023-02-10').GET('/subscriptions/');
    expect(seen).toEqual([defaultOf('GET /tickets/{id}/'), '2023-02-10']);
  });

  it('sets the headers once per call, with middleware added, per call, ejected or none', async () => {
    let issued = 0;
    const rotating = createAdminClient({ baseUrl: server.url, token: () => `token-${++issued}`, retry: false });
    const seen: (string | null)[] = [];
    const spy: Middleware = { onRequest: ({ request }) => void seen.push(request.headers.get('Authorization')) };
    await rotating.GET('/store/');
    await rotating.GET('/store/', { middleware: [spy] });
    rotating.use(spy);
    await rotating.GET('/tickets/{id}/', { params: { path: { id: 3 } } });
    rotating.eject(spy);
    await rotating.withVersion('2023-02-10').GET('/subscriptions/');
    expect(issued).toBe(4);
    expect(seen).toEqual(['Bearer token-2', 'Bearer token-3']);
    expect(server.requests.map((r) => [r.headers.authorization, r.headers[header]])).toEqual([
      ['Bearer token-1', STORE_VERSION],
      ['Bearer token-2', STORE_VERSION],
      ['Bearer token-3', defaultOf('GET /tickets/{id}/')],
      ['Bearer token-4', '2023-02-10'],
    ]);
  });
});

describe('versions', () => {
  it('withVersion sends that version for an operation it shares', async () => {
    await client.withVersion('2023-02-10').GET('/subscriptions/');
    await client.GET('/subscriptions/');
    expect(server.requests.map((r) => r.headers[header])).toEqual(['2023-02-10', defaultOf('GET /subscriptions/')]);
  });

  it('withVersion refuses an operation that version does not serve, before sending', async () => {
    const unstable = client.withVersion('unstable');
    await expect(unstable.GET('/subscriptions/' as never)).rejects.toThrow(
      `GET /subscriptions/ is not served by API version unstable (served by ${OPERATIONS['GET /subscriptions/']?.join(', ')})`,
    );
    await expect(client.GET('/nope/' as never)).rejects.toThrow('GET /nope/ is not an operation');
    expect(server.requests).toHaveLength(0);
  });

  it('withVersion refuses an unknown version', () => {
    expect(() => client.withVersion('2020-01-01' as never)).toThrow(/unknown API version 2020-01-01/);
  });
});

describe('path parameters', () => {
  it.each([[''], ['  '], [undefined], [null]])('refuses %j before sending', async (id) => {
    await expect(client.GET('/stockrecords/{id}/', { params: { path: { id: id as never } } })).rejects.toThrow(
      'GET /stockrecords/{id}/: path parameter `id` is empty',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('encodes a path parameter', async () => {
    await client.GET('/orders/{number}/fulfillments/', { params: { path: { number: 'A/1 2' } } });
    expect(server.requests[0]?.url).toBe('/orders/A%2F1%202/fulfillments/');
  });
});

describe('errors', () => {
  it('keeps the openapi-fetch { data, error, response } result', async () => {
    server.handle((_, response) => json(response, 404, { detail: 'Not found.' }));
    const result = await client.GET('/stockrecords/{id}/', { params: { path: { id: 5 } } });
    expect(result.data).toBeUndefined();
    expect(result.error).toEqual({ detail: 'Not found.' });
    expect(result.response.status).toBe(404);
  });

  it('unwrap returns the data of a 2xx response', async () => {
    server.handle((_, response) => json(response, 200, [{ name: 'Shop' }]));
    const stores = unwrap(await client.GET('/store/'));
    expect(stores[0]?.name).toBe('Shop');
  });

  it('unwrap throws an AdminApiError with status, parsed body, method, path and request id', async () => {
    server.handle((_, response) => json(response, 422, { amount: ['Too much.'] }, { 'X-Request-Id': 'req-42' }));
    const result = await client.POST('/transactions/{id}/capture/', {
      params: { path: { id: 8 } },
      body: { amount: '9.99' },
    });
    const error = (() => {
      try {
        unwrap(result);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error).toMatchObject({
      name: 'AdminApiError',
      status: 422,
      body: { amount: ['Too much.'] },
      method: 'POST',
      path: '/transactions/8/capture/',
      url: `${server.url}/transactions/8/capture/`,
      requestId: 'req-42',
      message: 'POST /transactions/8/capture/ failed with 422 Unprocessable Entity (request id req-42)',
    });
  });

  it('keeps a text body and an empty 401 body', async () => {
    server.handle((_, response) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
    });
    const text = await client.GET('/store/');
    expect(() => unwrap(text)).toThrow(expect.objectContaining({ status: 500, body: 'boom', requestId: undefined }));
    server.handle((_, response) => {
      response.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"', 'Content-Length': '0' }).end();
    });
    const empty = await client.GET('/store/');
    expect(() => unwrap(empty)).toThrow(expect.objectContaining({ status: 401, body: undefined, method: 'GET' }));
  });
});
