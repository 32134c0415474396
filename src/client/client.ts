/**
 * createAdminClient: the typed client, a thin layer over openapi-fetch that uses its public API
 * only (createClient with `baseUrl`, `headers`, `redirect`, `pathSerializer`; each call's
 * `params`, `body`, `headers`, `signal`, `middleware` and `fetch`; `use`/`eject`). Each call:
 *   1. is checked before anything is built: the operation must be served by the client's version
 *      (or have a default version) and every path parameter must be a value that cannot change
 *      the path (see `segmentOf`); a token function is awaited, once per call;
 *   2. goes to the one openapi-fetch client with the version header and `Authorization` as the
 *      call's headers (so middleware sees the final headers), and with a fetch of the call's own:
 *      the client's retries, timeout, redirect rule and response checks, with the call's options.
 */
import createClient, { type HeadersOptions, type Middleware } from 'openapi-fetch';
import { type ApiVersion, VERSION_HEADER, VERSIONS, versionOf } from '../contract/index.ts';
import { AdminClientError } from './errors.ts';
import { responseError } from './guard.ts';
import { type CallState, type RequestExtras, retryingFetch } from './retry.ts';
import type { AdminClient, AdminPaths, CallOptions } from './types.ts';

export interface AdminClientOptions extends RequestExtras {
  /** The store's admin API root, e.g. `https://shop.example.com/api/admin`. */
  baseUrl: string;
  /** The OAuth 2.0 access token, or a function returning it, called once per call (rotation). */
  token: string | (() => string | Promise<string>);
  /** A fetch to use instead of `globalThis.fetch`; it is called with a Request. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (`Authorization` and the version header are the client's). */
  headers?: HeadersOptions;
}

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
type Init = CallOptions & { params?: { path?: Record<string, unknown> } & Record<string, unknown>; body?: unknown };
type Call = (path: string, init?: Init) => Promise<unknown>;
type OpenapiCall = (path: string, init: object) => Promise<unknown>;

const METHODS: Method[] = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
const PATH_PARAM = /\{([^{}]+)\}/g;

/**
 * A path parameter as one encoded path segment, or why it is refused: only strings, finite numbers
 * and bigints; not empty or blank; not `.` or `..` (dot segments, which URL parsing resolves even
 * percent-encoded); every other character is percent-encoded (`/`, `?`, `#`, `%`…).
 */
function segmentOf(value: unknown): string | { refused: string } {
  const kind = typeof value;
  if (!(kind === 'string' || kind === 'bigint' || (kind === 'number' && Number.isFinite(value)))) {
    return { refused: value === undefined || value === null ? 'empty' : `not a string or number (${String(value)})` };
  }
  const text = String(value);
  if (!text.trim()) return { refused: 'empty' };
  if (text === '.' || text === '..') return { refused: `"${text}", a dot segment that would change the path` };
  try {
    return encodeURIComponent(text);
  } catch {
    return { refused: 'not valid Unicode' };
  }
}

type OpenapiClient = Record<Method, OpenapiCall> & { use(...m: Middleware[]): void; eject(...m: Middleware[]): void };

/** The options a client cannot work without: a base URL and a token (string or function). */
function checkOptions(options: AdminClientOptions): void {
  const { baseUrl, token } = options ?? ({} as AdminClientOptions);
  if (typeof baseUrl !== 'string' || !baseUrl.trim()) {
    throw new TypeError('createAdminClient: `baseUrl` is required');
  }
  if (typeof token === 'string' ? !token.trim() : typeof token !== 'function') {
    throw new TypeError('createAdminClient: `token` is required (a string or a function)');
  }
}

/** The one openapi-fetch client, its path parameters encoded by `segmentOf`, redirects left to the client's fetch. */
function openapiClient(baseUrl: string, headers: HeadersOptions | undefined): OpenapiClient {
  // openapi-fetch joins the baseUrl (without its trailing slash) and the path, then serializes the
  // path parameters of the path part only: a `{` in the baseUrl stays as it is.
  const root = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const pathSerializer = (url: string, values: Record<string, unknown>) =>
    root +
    url.slice(root.length).replace(PATH_PARAM, (_, name: string) => {
      const segment = segmentOf(values[name]);
      if (typeof segment === 'string') return segment;
      throw new TypeError(name); // unreachable: `method` checks every path parameter first
    });
  return createClient<object>({ baseUrl, headers, redirect: 'manual', pathSerializer }) as unknown as OpenapiClient;
}

/** The client's own headers of a call: the version header and `Authorization`. */
const ownHeaders = (version: ApiVersion, bearer: string): Record<string, string> => ({
  [VERSION_HEADER]: version,
  Authorization: bearer,
});

/** A call's headers with the client's own over them (whatever form the call gave them in). */
function mergeHeaders(given: HeadersOptions | undefined, own: Record<string, string>): HeadersOptions {
  return given === undefined
    ? own
    : given instanceof Headers || Array.isArray(given)
      ? Object.assign(Object.fromEntries(new Headers(given as HeadersInit)), own)
      : { ...given, ...own };
}

/** The call's API version, after checking every path parameter; throws before anything is sent. */
function checkCall(name: Method, path: string, init: Init | undefined, clientVersion: ApiVersion | undefined) {
  const version = versionOf(name, path, clientVersion);
  if (path.includes('{')) {
    for (const [, param = ''] of path.matchAll(PATH_PARAM)) {
      const segment = segmentOf(init?.params?.path?.[param]);
      if (typeof segment !== 'string') {
        throw new AdminClientError(
          'path-parameter',
          `${name} ${path}: path parameter \`${param}\` is ${segment.refused}; nothing was sent`,
          { method: name, url: path },
        );
      }
    }
  }
  return version;
}

/** The client's own headers of a call per version with a fixed token (one object each, reused); none for a token function. */
function fixedHeadersOf(token: AdminClientOptions['token']): Record<ApiVersion, Record<string, string>> | undefined {
  if (typeof token !== 'string') return undefined;
  const byVersion = VERSIONS.map((version) => [version, ownHeaders(version, `Bearer ${token}`)]);
  return Object.fromEntries(byVersion) as Record<ApiVersion, Record<string, string>>;
}

export function createAdminClient(options: AdminClientOptions): AdminClient<AdminPaths> {
  checkOptions(options);
  const { baseUrl, token, headers, retry, timeout, maxResponseBytes } = options;
  const send = retryingFetch(options.fetch ?? ((request: Request) => globalThis.fetch(request)), {
    retry,
    timeout,
    maxResponseBytes,
  });
  const api = openapiClient(baseUrl, headers);
  const fixedHeaders = fixedHeadersOf(token);

  const request = (name: Method, path: string, init: Init | undefined, own: Record<string, string>) => {
    const { params, body, headers: given, signal, middleware, retry, timeout, maxResponseBytes } = init ?? {};
    const call: CallState = { retry, timeout, maxResponseBytes };
    const fetch = (request: Request) => send(request, call);
    const merged = mergeHeaders(given, own);
    return api[name](path, { params, body, signal, middleware, headers: merged, fetch }).catch((error: unknown) => {
      const last = call.last;
      throw error instanceof SyntaxError && last
        ? responseError('not-json', 'response is not valid JSON', { request: last[1], response: last[0] })
        : error;
    });
  };

  const method =
    (name: Method, clientVersion: ApiVersion | undefined): Call =>
    (path, init) => {
      let version: ApiVersion;
      try {
        version = checkCall(name, path, init, clientVersion);
      } catch (error) {
        return Promise.reject(error);
      }
      if (fixedHeaders) return request(name, path, init, fixedHeaders[version]);
      return (async () => {
        const bearer = await (token as () => string | Promise<string>)();
        if (typeof bearer !== 'string' || !bearer.trim()) {
          throw new TypeError(`${name} ${path}: the token function returned no token`);
        }
        return request(name, path, init, ownHeaders(version, `Bearer ${bearer}`));
      })();
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
    use: (...added: Middleware[]) => api.use(...added),
    eject: (...removed: Middleware[]) => api.eject(...removed),
  });
  return clientFor(undefined) as AdminClient<AdminPaths>;
}
