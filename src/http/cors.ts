/**
 * CORS for browser apps on another origin (a dev server on localhost:5173 calling the mock on :4010).
 * The mock is a development tool: every origin is allowed, echoed back so that credentialed requests
 * work too, and every header a frontend (or the client) may read is exposed: the mock's, the static
 * mode's and the proxy's, which sends these CORS headers too (src/static, src/proxy).
 */
import { VERSION_HEADER } from '../contract/index.ts';

/** The mock's answer header naming the declared filters it does not apply (src/mock's store stage). */
export const IGNORED_FILTERS_HEADER = 'X-Mock-Ignored-Filters';
/** The mock's answer header naming the query parameters the operation does not declare, comma-separated. */
export const UNKNOWN_QUERY_HEADER = 'X-Mock-Unknown-Query';

/**
 * Access-Control-Expose-Headers of every answer of the mock, `--static` and the proxy. A header the
 * mock, the static mode or the proxy starts sending for a client to read goes here (one list);
 * without it, a page on another origin reads it as null (issue #27: Retry-After).
 */
/** The proxy's count of an exchange's contract violations (a header, or a trailer when streamed). */
export const VIOLATIONS_HEADER = 'X-Contract-Violations';

export const EXPOSED_HEADERS = [
  VERSION_HEADER,
  'WWW-Authenticate',
  'Allow',
  'Content-Type',
  // The wait of a 429 or 503 (the mock's failure scenarios; a real API's through the proxy): the client honours it.
  'Retry-After',
  // Prism's violations (--static), the proxy's count.
  'sl-violations',
  VIOLATIONS_HEADER,
  // The mock's warnings: declared filters it does not apply, query parameters the operation does not declare.
  IGNORED_FILTERS_HEADER,
  UNKNOWN_QUERY_HEADER,
  // A real API's request ids, through the proxy: the client's AdminApiError.requestId.
  'X-Request-Id',
  'Request-Id',
  'X-Correlation-Id',
];
export const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Prefer', VERSION_HEADER, 'Accept'];
export const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The headers for no origin, and for the origin asked last (a dev server sends one, every time). */
let anyOrigin: Readonly<Record<string, string>> | undefined;
let last: { origin: string; headers: Readonly<Record<string, string>> } | undefined;

/** The CORS headers of every answer, for a request from `origin` (transport-independent); do not change them. */
export function corsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
  if (origin === undefined) {
    anyOrigin ??= Object.freeze(headersFor(undefined));
    return anyOrigin;
  }
  if (last?.origin !== origin) last = { origin, headers: Object.freeze(headersFor(origin)) };
  return last.headers;
}

function headersFor(origin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin ?? '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
  };
  if (origin) {
    headers['Access-Control-Allow-Credentials'] = 'true';
    headers.Vary = 'Origin';
  }
  return headers;
}

/** The headers of a preflight answer (204): methods and headers allowed, cached for 10 minutes. */
export function preflightHeaders(origin: string | undefined, requested: string | undefined): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': ALLOWED_METHODS.join(', '),
    'Access-Control-Allow-Headers': requested?.trim() ? requested : ALLOWED_HEADERS.join(', '),
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
}
