/**
 * createAdminClient: one openapi-fetch client per API version in use (the default one merges the
 * versions), sharing one fetch (retries, timeout) and one middleware list. The client's own
 * middleware runs first: it refuses an empty path parameter or an operation the version does not
 * serve before anything is sent, then sets `Authorization` and the version header.
 */
import createClient, { type Client, type HeadersOptions, type Middleware } from 'openapi-fetch';
import { type RequestExtras, retryingFetch } from './retry.js';
import type { AdminClient, AdminPaths } from './types.js';
import { type ApiVersion, VERSION_HEADER, VERSIONS, versionOf } from './versions.js';

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

const PATH_PARAM = /\{([^{}]+)\}/g;

export function createAdminClient(options: AdminClientOptions): AdminClient<AdminPaths> {
  const { baseUrl, token, headers, retry, timeout } = options ?? ({} as AdminClientOptions);
  if (typeof baseUrl !== 'string' || !baseUrl.trim()) {
    throw new TypeError('createAdminClient: `baseUrl` is required (the store admin API root URL)');
  }
  if (typeof token === 'string' ? !token.trim() : typeof token !== 'function') {
    throw new TypeError('createAdminClient: `token` is required (an access token, or a function returning one)');
  }
  const fetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const shared = { baseUrl, headers, fetch: retryingFetch(fetch, { retry, timeout }) };
  let middleware: Middleware[] = [];
  const clients = new Map<ApiVersion | undefined, Client<object>>();

  const authorize = (request: Request, bearer: unknown, schemaPath: string) => {
    if (typeof bearer !== 'string' || !bearer.trim()) {
      throw new TypeError(`${request.method} ${schemaPath}: the token function returned no token`);
    }
    request.headers.set('Authorization', `Bearer ${bearer}`);
  };
  const own = (version: ApiVersion | undefined): Middleware => ({
    onRequest({ request, schemaPath, params }) {
      request.headers.set(VERSION_HEADER, versionOf(request.method, schemaPath, version));
      if (schemaPath.includes('{')) {
        for (const [, name = ''] of schemaPath.matchAll(PATH_PARAM)) {
          const given = params.path?.[name];
          if (given === undefined || given === null || String(given).trim() === '') {
            throw new TypeError(`${request.method} ${schemaPath}: path parameter \`${name}\` is empty`);
          }
        }
      }
      // A string token is set at once; a token function is awaited, once per request.
      if (typeof token !== 'function') return authorize(request, token, schemaPath);
      return (async () => authorize(request, await token(), schemaPath))();
    },
  });

  // Typed at the edge only: comparing AdminClient types structurally is costly for the checker.
  const clientFor = (version: ApiVersion | undefined): object => {
    let client = clients.get(version);
    if (!client) {
      client = createClient<object>(shared);
      client.use(own(version), ...middleware);
      clients.set(version, client);
    }
    const { GET, PUT, POST, DELETE, PATCH } = client;
    return {
      GET,
      PUT,
      POST,
      DELETE,
      PATCH,
      withVersion(next: ApiVersion) {
        if (!VERSIONS.includes(next))
          throw new TypeError(`withVersion: unknown API version ${next} (${VERSIONS.join(', ')})`);
        return clientFor(next);
      },
      use(...added: Middleware[]) {
        middleware.push(...added);
        for (const each of clients.values()) each.use(...added);
      },
      eject(...removed: Middleware[]) {
        middleware = middleware.filter((each) => !removed.includes(each));
        for (const each of clients.values()) each.eject(...removed);
      },
    };
  };
  return clientFor(undefined) as AdminClient<AdminPaths>;
}
