// The openapi-fetch behaviours the client relies on, one test each, through openapi-fetch's public
// API only (createClient, its options, each call's options, use/eject, middleware). If an upgrade
// of openapi-fetch changes one of them, this file says which, before the client's own tests do.
import createClient, { type Middleware } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';

/** A fetch that records the Requests it gets and answers `respond(request)` (JSON `{}` by default). */
function recorder(respond: (request: Request) => Response = () => Response.json({})) {
  const requests: Request[] = [];
  const calls: unknown[][] = [];
  const fetch = async (...args: unknown[]) => {
    calls.push(args);
    requests.push(args[0] as Request);
    return respond(args[0] as Request);
  };
  return { fetch: fetch as (request: Request) => Promise<Response>, requests, calls };
}

// openapi-fetch types its calls by `paths`; these tests call it untyped, as the client does.
type Untyped = Record<'GET' | 'POST' | 'PATCH', (path: string, init?: object) => Promise<Record<string, unknown>>> & {
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
};
const client = (options: Parameters<typeof createClient>[0]) => createClient<object>(options) as unknown as Untyped;

describe('openapi-fetch 0.17, as the client uses it', () => {
  it('calls the `fetch` option with one Request (the client wraps it for retries, redirects and checks)', async () => {
    const { fetch, calls } = recorder();
    await client({ baseUrl: 'http://api.test', fetch }).GET('/store/');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toBeInstanceOf(Request);
    expect((calls[0]?.[0] as Request | undefined)?.url).toBe('http://api.test/store/');
  });

  it('takes a call’s `fetch` over the client’s (the client’s per-call options travel in it)', async () => {
    const base = recorder();
    const own = recorder();
    await client({ baseUrl: 'http://api.test', fetch: base.fetch }).GET('/store/', { fetch: own.fetch });
    expect(base.requests).toHaveLength(0);
    expect(own.requests).toHaveLength(1);
  });

  it('merges a call’s `headers` over the client’s (the token and version header win)', async () => {
    const { fetch, requests } = recorder();
    await client({ baseUrl: 'http://api.test', fetch, headers: { Authorization: 'Basic x', 'X-Trace': 'a' } }).GET(
      '/store/',
      { headers: { Authorization: 'Bearer t', 'X-Service-API-Version': '2024-04-01' } },
    );
    expect(Object.fromEntries(requests[0]?.headers ?? [])).toEqual({
      authorization: 'Bearer t',
      'x-service-api-version': '2024-04-01',
      'x-trace': 'a',
    });
  });

  it('lets middleware onRequest see the call’s headers and set headers in place', async () => {
    const { fetch, requests } = recorder();
    const api = client({ baseUrl: 'http://api.test', fetch });
    const seen: (string | null)[] = [];
    api.use({
      onRequest: ({ request }) => {
        seen.push(request.headers.get('Authorization'));
        request.headers.set('X-Added', '1');
      },
    });
    await api.GET('/store/', { headers: { Authorization: 'Bearer t' } });
    expect(seen).toEqual(['Bearer t']);
    expect(requests[0]?.headers.get('X-Added')).toBe('1');
  });

  it('skips the network when onRequest returns a Response, and eject removes middleware', async () => {
    const { fetch, requests } = recorder();
    const api = client({ baseUrl: 'http://api.test', fetch });
    const cached: Middleware = { onRequest: () => Response.json({ cached: true }) };
    api.use(cached);
    expect((await api.GET('/store/')).data).toEqual({ cached: true });
    expect(requests).toHaveLength(0);
    api.eject(cached);
    await api.GET('/store/');
    expect(requests).toHaveLength(1);
  });

  it('runs a call’s `middleware` after the client’s', async () => {
    const order: string[] = [];
    const api = client({ baseUrl: 'http://api.test', fetch: recorder().fetch });
    api.use({ onRequest: () => void order.push('client') });
    await api.GET('/store/', { middleware: [{ onRequest: () => void order.push('call') }] });
    expect(order).toEqual(['client', 'call']);
  });

  it('serializes query arrays form-exploded and encodes values', async () => {
    const { fetch, requests } = recorder();
    await client({ baseUrl: 'http://api.test', fetch }).GET('/subscriptions/', {
      params: { query: { status: ['active', 'paused'], search_text: 'a b&c', cursor: undefined } },
    });
    expect(requests[0]?.url).toBe('http://api.test/subscriptions/?status=active&status=paused&search_text=a%20b%26c');
  });

  it('keeps the path’s trailing slash and removes the baseUrl’s', async () => {
    const { fetch, requests } = recorder();
    await client({ baseUrl: 'http://api.test/api/admin/', fetch }).GET('/store/');
    expect(requests[0]?.url).toBe('http://api.test/api/admin/store/');
  });

  it('hands the baseUrl joined with the path, and params.path, to the `pathSerializer` option and uses what it returns', async () => {
    const { fetch, requests } = recorder();
    const seen: unknown[] = [];
    const pathSerializer = (url: string, values: Record<string, unknown>) => {
      seen.push([url, values]);
      return url.replace('{id}', `id-${String(values.id)}`);
    };
    await client({ baseUrl: 'http://api.test/api/', fetch, pathSerializer }).GET('/tickets/{id}/', {
      params: { path: { id: 7 }, query: { a: 1 } },
    });
    expect(seen).toEqual([['http://api.test/api/tickets/{id}/', { id: 7 }]]);
    expect(requests[0]?.url).toBe('http://api.test/api/tickets/id-7/?a=1');
  });

  it('rejects the call with what `pathSerializer` throws, before any fetch', async () => {
    const { fetch, requests } = recorder();
    const refusal = new Error('refused');
    const pathSerializer = () => {
      throw refusal;
    };
    await expect(
      client({ baseUrl: 'http://api.test', fetch, pathSerializer }).GET('/tickets/{id}/', {
        params: { path: { id: 1 } },
      }),
    ).rejects.toBe(refusal);
    expect(requests).toHaveLength(0);
  });

  it('passes the `redirect` option onto the Request (the client asks for manual redirects)', async () => {
    const { fetch, requests } = recorder();
    await client({ baseUrl: 'http://api.test', fetch, redirect: 'manual' }).GET('/store/');
    expect(requests[0]?.redirect).toBe('manual');
  });

  it('passes a call’s `signal` onto the Request', async () => {
    const { fetch, requests } = recorder();
    const controller = new AbortController();
    await client({ baseUrl: 'http://api.test', fetch }).GET('/store/', { signal: controller.signal });
    controller.abort();
    expect(requests[0]?.signal.aborted).toBe(true);
  });

  it('sends a body as JSON with Content-Type application/json', async () => {
    const { fetch, requests } = recorder();
    await client({ baseUrl: 'http://api.test', fetch }).POST('/gift-cards/', { body: { initial: '1.00' } });
    expect(requests[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(await requests[0]?.text()).toBe('{"initial":"1.00"}');
  });

  it('rejects the call with the error the fetch throws, as it is (AdminClientError, TimeoutError…)', async () => {
    const thrown = new Error('from fetch');
    const fetch = async () => {
      throw thrown;
    };
    await expect(client({ baseUrl: 'http://api.test', fetch }).GET('/store/')).rejects.toBe(thrown);
  });

  it('returns { data, response } for a 2xx and { error, response } otherwise, with the fetch’s Response', async () => {
    const ok = Response.json({ id: 1 });
    const failed = new Response('{"detail":"no"}', { status: 404 });
    const text = new Response('boom', { status: 500 });
    let next = ok;
    const api = client({ baseUrl: 'http://api.test', fetch: async () => next });
    expect(await api.GET('/store/')).toEqual({ data: { id: 1 }, response: ok });
    next = failed;
    expect(await api.GET('/store/')).toEqual({ error: { detail: 'no' }, response: failed });
    next = text;
    const result = await api.GET('/store/');
    expect(result).toEqual({ error: 'boom', response: text });
    expect(result.response).toBe(text); // the same object: the client keys request details on it
  });

  it('reads no body for a 204 or a Content-Length of 0', async () => {
    let next = new Response(null, { status: 204 });
    const api = client({ baseUrl: 'http://api.test', fetch: async () => next });
    expect((await api.GET('/store/')).data).toBeUndefined();
    next = new Response('', { status: 200, headers: { 'Content-Length': '0', 'Content-Type': 'text/html' } });
    expect((await api.GET('/store/')).data).toBeUndefined();
  });

  it('rejects with a SyntaxError when a 2xx body is not JSON (the client turns it into AdminClientError)', async () => {
    const api = client({ baseUrl: 'http://api.test', fetch: async () => new Response('<html>') });
    await expect(api.GET('/store/')).rejects.toBeInstanceOf(SyntaxError);
  });

  it('rejects with the stream’s error when a body fails while read (the size limit of any body)', async () => {
    const limit = new Error('too large');
    const failing = () =>
      new ReadableStream({
        pull(controller) {
          controller.error(limit);
        },
      });
    for (const status of [200, 500]) {
      const api = client({ baseUrl: 'http://api.test', fetch: async () => new Response(failing(), { status }) });
      await expect(api.GET('/store/')).rejects.toBe(limit);
    }
  });
});
