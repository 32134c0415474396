/**
 * What keeps a web page from driving the admin endpoints: a browser sends a cross-origin POST or
 * DELETE with `Content-Type: application/json` only after a CORS preflight, and the admin paths grant
 * CORS to loopback origins only (a dev server on localhost; the inspector is same-origin). So every
 * admin POST/DELETE must carry that content type ({@link contentTypeRefusal}), and answers under
 * `/__mock/` carry CORS headers only for a loopback origin ({@link adminCors}).
 *
 * DNS rebinding gets around both (a foreign page whose name now resolves to 127.0.0.1 is same-origin
 * with the mock): the node server refuses an admin request whose `Host` is not loopback, or the
 * address it was bound to (`--host`), and one whose `Origin` is neither loopback nor the `Host`'s own
 * ({@link adminAccessRefusal}).
 */
import { corsHeaders, fieldRefusal, preflightHeaders, type Refusal } from '../../http/index.ts';

const LOOPBACK = /^https?:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

export const isLoopbackOrigin = (origin: string | undefined): boolean => origin !== undefined && LOOPBACK.test(origin);

/** CORS headers of an admin answer: none for a foreign origin (the browser then withholds it). */
export function adminCors(origin: string | undefined): Record<string, string> {
  return origin === undefined || isLoopbackOrigin(origin) ? corsHeaders(origin) : { Vary: 'Origin' };
}

/** A preflight to an admin path: allowed for a loopback origin only. */
export function adminPreflight(origin: string | undefined, requested: string | undefined): Record<string, string> {
  return isLoopbackOrigin(origin) ? preflightHeaders(origin, requested) : { Vary: 'Origin' };
}

/** 415 for an admin POST/DELETE without `Content-Type: application/json`; undefined when it has it. */
export function contentTypeRefusal(method: string, contentType: string | undefined): Refusal | undefined {
  if (method !== 'POST' && method !== 'DELETE') return undefined;
  if (contentType !== undefined && /^application\/json\b/i.test(contentType)) return undefined;
  const message =
    'Admin endpoints need Content-Type: application/json (a browser sends it from another origin only after a CORS preflight).';
  return fieldRefusal('unsupportedMediaType', { field: 'header.Content-Type', rule: 'content-type', message });
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/i;
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:.]*:[0-9a-f:.]*)$/i;
const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** The host name of a `Host` header or a `--host` value: no port, no brackets, lower case. */
function hostName(host: string): string {
  const text = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1] as string;
  // More than one colon: a bare IPv6 address (a --host value), without a port.
  return text.split(':').length > 2 ? text : text.replace(/:\d+$/, '');
}

/** Is `--host` beyond loopback (the admin endpoints reachable from the network)? */
export const exposesAdmin = (bound: string): boolean => !LOOPBACK_HOST.test(hostName(bound));

/**
 * Which `Host` names may reach the admin endpoints of a server bound to `bound`: loopback ones, and
 * `bound` itself when it is not; any IP address for a wildcard bind (`0.0.0.0`, `::`: no DNS name,
 * so no rebinding).
 */
function allowedHost(host: string, bound: string): boolean {
  const name = hostName(host);
  if (LOOPBACK_HOST.test(name)) return true;
  const boundName = hostName(bound);
  return name === boundName || (WILDCARD.has(boundName) && IP_LITERAL.test(name));
}

/**
 * 403 for an admin request a rebound DNS name or a foreign page sent: a `Host` that is not allowed
 * (above), or an `Origin` that is neither loopback nor the `Host`'s own (`null` included); undefined
 * when it may go on. A request without `Host` (HTTP/1.0) or `Origin` (a script, curl) is not a browser's.
 */
export function adminAccessRefusal(
  host: string | undefined,
  origin: string | undefined,
  bound: string,
): Refusal | undefined {
  if (host !== undefined && !allowedHost(host, bound)) {
    const message = `The admin endpoints answer a loopback Host (or the --host address, ${bound}), not "${host.slice(0, 100)}" (DNS rebinding).`;
    return fieldRefusal('adminForbidden', { field: 'header.Host', rule: 'loopback', message });
  }
  if (origin === undefined || isLoopbackOrigin(origin)) return undefined;
  const sameOrigin = host !== undefined && URL.canParse(origin) && new URL(origin).host === host.trim().toLowerCase();
  if (sameOrigin) return undefined;
  const message = `The admin endpoints answer pages of a loopback origin or of this server, not "${origin.slice(0, 100)}".`;
  return fieldRefusal('adminForbidden', { field: 'header.Origin', rule: 'same-origin', message });
}

/** Where an admin request carries `--admin-token`: a header (scripts), a cookie (the inspector page). */
export const ADMIN_TOKEN_HEADER = 'X-Mock-Admin-Token';
export const ADMIN_TOKEN_COOKIE = 'mock_admin_token';
/** `GET /__mock/?admin_token=T` once: the cookie is set and the page works (the query is never logged). */
export const ADMIN_TOKEN_QUERY = 'admin_token';

/** Compares two secrets in time independent of where they differ. */
function sameSecret(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}

/** The admin token of a request: its header, else its cookie; undefined without either. */
export function adminTokenOf(header: string | undefined, cookies: string | undefined): string | undefined {
  if (header !== undefined) return header.trim();
  const prefix = `${ADMIN_TOKEN_COOKIE}=`;
  const cookie = cookies
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(prefix));
  return cookie === undefined ? undefined : decodeURIComponent(cookie.slice(prefix.length));
}

/** 403 naming the header when `--admin-token` is set and the request does not carry it; else undefined. */
export function adminTokenRefusal(given: string | undefined, expected: string): Refusal | undefined {
  if (given !== undefined && sameSecret(given, expected)) return undefined;
  const message = `The admin endpoints need the --admin-token: the ${ADMIN_TOKEN_HEADER} header, or open /__mock/?${ADMIN_TOKEN_QUERY}=<token> once in the browser.`;
  return fieldRefusal('adminForbidden', { field: `header.${ADMIN_TOKEN_HEADER}`, rule: 'admin-token', message });
}
