/**
 * createAdminClient: the typed client, a thin layer over openapi-fetch. Each call goes through two
 * steps of the client's own:
 *   1. before anything is built, the call is checked (the operation must be served by the client's
 *      version, or have a default version; no path parameter may be empty) and handed to the
 *      openapi-fetch client of its version;
 *   2. just before sending, `Authorization` and the version header are set on the Request.
 * Step 2 runs inside the fetch given to openapi-fetch: with no middleware registered, openapi-fetch
 * skips its middleware steps, which were most of this layer's own per-request cost (see
 * scripts/bench/client.ts). Middleware must see the final headers, so a call that has any (added
 * with `use`, or the call's own `middleware`) goes to a second openapi-fetch client of the same
 * version, where step 2 is the first middleware. Both share one fetch (retries, timeout).
 */
import createClient, { type Client, type HeadersOptions, type Middleware } from 'openapi-fetch';
import { type ApiVersion, VERSION_HEADER, VERSIONS, versionOf } from '../contract/index.ts';
import { type RequestExtras, retryingFetch } from './retry.ts';
import type { AdminClient, AdminPaths } from './types.ts';

export interface AdminClientOptions extends RequestExtras {
  /** The store's admin API root, e.g. `https://shop.example.com/api/admin`. */
  baseUrl: string;
  /** The OAuth 2.0 access token, or a function returning it, called for every request (rotation). */
  token: string | (() => string | Promise<string>);
  /** A fetch to use instead of `globalThis.fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (`Authorization` and the version header are the client's). */
  headers?: HeadersOptions;
}

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
type Call = (path: string, init?: { params?: { path?: Record<string, unknown> }; middleware?: unknown[] }) => unknown;

const METHODS: Method[] = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
const PATH_PARAM = /\{([^{}]+)\}/g;

export function createAdminClient(options: AdminClientOptions): AdminClient<AdminPaths> {
  const { baseUrl, token, headers, retry, timeout } = options ?? ({} as AdminClientOptions);
  if (typeof baseUrl !== 'string' || !baseUrl.trim()) {
    throw new TypeError('createAdminClient: `baseUrl` is required (the store admin API root URL)');
  }
  if (typeof token === 'string' ? !token.trim() : typeof token !== 'function') {
    throw new TypeError('createAdminClient: `token` is required (an access token, or a function returning one)');
  }
  const send = retryingFetch(options.fetch ?? ((request: Request) => globalThis.fetch(request)), { retry, timeout });
  const fixedBearer = typeof token === 'string' ? `Bearer ${token}` : undefined;
  let middleware: Middleware[] = [];
  // The openapi-fetch clients, by version: without middleware (`direct`) and with (`layered`).
  const direct = new Map<ApiVersion, Client<object>>();
  const layered = new Map<ApiVersion, Client<object>>();

  /** Step 2: the version header, and the token (a token function is awaited, once per call). */
  const authorize = (request: Request, version: ApiVersion): Promise<void> | undefined => {
    request.headers.set(VERSION_HEADER, version);
    if (fixedBearer) return void request.headers.set('Authorization', fixedBearer);
    return (async () => {
      const bearer = await (token as () => string | Promise<string>)();
      if (typeof bearer !== 'string' || !bearer.trim()) {
        throw new TypeError(`${request.method} ${request.url}: the token function returned no token`);
      }
      request.headers.set('Authorization', `Bearer ${bearer}`);
    })();
  };

  const openapiClient = (version: ApiVersion, withMiddleware: boolean): Client<object> => {
    const cache = withMiddleware ? layered : direct;
    let client = cache.get(version);
    if (!client) {
      if (withMiddleware) {
        client = createClient<object>({ baseUrl, headers, fetch: send });
        client.use({ onRequest: ({ request }) => authorize(request, version) }, ...middleware);
      } else {
        const fetch = (request: Request) => {
          const pending = authorize(request, version);
          return pending ? pending.then(() => send(request)) : send(request);
        };
        client = createClient<object>({ baseUrl, headers, fetch });
      }
      cache.set(version, client);
    }
    return client;
  };

  /** Step 1, then the openapi-fetch call. A refusal rejects, as a failed request would. */
  const method =
    (name: Method, clientVersion: ApiVersion | undefined): Call =>
    (path, init) => {
      let target: Client<object>;
      try {
        const version = versionOf(name, path, clientVersion);
        if (path.includes('{')) {
          for (const [, param = ''] of path.matchAll(PATH_PARAM)) {
            const given = init?.params?.path?.[param];
            if (given === undefined || given === null || String(given).trim() === '') {
              throw new TypeError(`${name} ${path}: path parameter \`${param}\` is empty`);
            }
          }
        }
        target = openapiClient(version, middleware.length > 0 || (init?.middleware?.length ?? 0) > 0);
      } catch (error) {
        return Promise.reject(error);
      }
      return (target[name] as Call)(path, init);
    };

  // Typed at the edge only: comparing AdminClient types structurally is costly for the checker.
  const clientFor = (version: ApiVersion | undefined): object => ({
    ...Object.fromEntries(METHODS.map((name) => [name, method(name, version)])),
    withVersion(next: ApiVersion) {
      if (!VERSIONS.includes(next)) {
        throw new TypeError(`withVersion: unknown API version ${next} (${VERSIONS.join(', ')})`);
      }
      return clientFor(next);
    },
    use(...added: Middleware[]) {
      middleware.push(...added);
      for (const client of layered.values()) client.use(...added);
    },
    eject(...removed: Middleware[]) {
      middleware = middleware.filter((each) => !removed.includes(each));
      for (const client of layered.values()) client.eject(...removed);
    },
  });
  return clientFor(undefined) as AdminClient<AdminPaths>;
}
