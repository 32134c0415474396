/**
 * Stage route: a CORS preflight is answered at once; a path with a malformed escape is refused
 * (400); the mock's admin paths (/__mock/...) are served; the path and method are routed (404, 405; an OPTIONS
 * request gets the allowed methods). What is left for the version stage is a matched route or a
 * version the endpoint does not list.
 */
import { VERSION_HEADER } from '../../contract/index.ts';
import { adminPreflight } from '../admin/guard.ts';
import { answerAdmin, isAdminPath } from '../admin/routes.ts';
import { preflightHeaders } from '../cors.ts';
import { malformedUrl, routeRefusal } from '../refusals.ts';
import type { RouteResult } from '../router.ts';
import type { EngineCore, Incoming, RawRequest, RawResponse, Target } from './context.ts';
import { refuse } from './respond.ts';

export const RESET_PATH = '/__mock/reset';

export type Routed = Extract<RouteResult<Target>, { kind: 'matched' | 'unsupported-version' }>;

/**
 * A path of plain segments (no dot segment, escape, backslash or character the URL parser would
 * encode) and a query of printable ASCII without a fragment or space: read as they are, which is what
 * WHATWG URL parsing yields for them. Anything else goes through `new URL`.
 */
const SEGMENT = "[A-Za-z0-9_~,:@!$&'()*+;=-]+(?:\\.+[A-Za-z0-9_~,:@!$&'()*+;=-]+)*";
// Segments separated by one slash each: no way to split a run of characters twice (no backtracking).
const PLAIN_PATH = new RegExp(`^/(?:${SEGMENT}(?:/${SEGMENT})*/?)?$`);
// Printable ASCII but space and `#`.
const PLAIN_QUERY = /^[!-"$-~]*$/;

/** The path and query of an origin-form target, as `new URL` reads them (a fast path for plain ones). */
export function parseTarget(target: string): { pathname: string; searchParams: URLSearchParams } {
  const mark = target.indexOf('?');
  const path = mark < 0 ? target : target.slice(0, mark);
  // With its `?`, which URLSearchParams drops: a query starting with another `?` keeps that one.
  const query = mark < 0 ? '' : target.slice(mark);
  if (PLAIN_PATH.test(path) && PLAIN_QUERY.test(query))
    return { pathname: path, searchParams: new URLSearchParams(query) };
  const url = new URL(`http://mock.invalid${target.startsWith('/') ? target : `/${target}`}`);
  return { pathname: url.pathname, searchParams: url.searchParams };
}

/** The incoming request read once: method, path and query, bearer token (a write's ticket is opened by ./intake.ts). */
export function incomingOf(core: EngineCore, raw: RawRequest): Incoming {
  const { pathname, searchParams } = parseTarget(raw.target);
  const authorization = raw.header('authorization');
  return {
    core,
    raw,
    method: raw.method.toUpperCase(),
    searchParams,
    pathname,
    authorization,
    token: authorization === undefined ? undefined : /^bearer[ \t]+(\S.*)$/i.exec(authorization.trim())?.[1]?.trim(),
    ticket: undefined,
  };
}

export function route(incoming: Incoming): RawResponse | Routed | Promise<RawResponse> {
  const { raw, method, pathname, core } = incoming;
  // A preflight carries no token: answered before anything else.
  if (method === 'OPTIONS' && raw.header('access-control-request-method') !== undefined) {
    const [origin, requested] = [raw.header('origin'), raw.header('access-control-request-headers')];
    const headers = isAdminPath(pathname) ? adminPreflight(origin, requested) : preflightHeaders(origin, requested);
    return { status: 204, headers, body: '', version: 'preflight' };
  }
  try {
    decodeURIComponent(pathname);
  } catch {
    // A malformed percent-escape cannot be routed.
    return refuse(malformedUrl(pathname));
  }
  // The mock's own endpoints (../admin), outside the API: no version; CORS for loopback origins only.
  if (isAdminPath(pathname)) return answerAdmin(incoming);
  const found = core.router.resolve(method, pathname, raw.header(VERSION_HEADER.toLowerCase()) || undefined);
  if (found.kind === 'matched' || found.kind === 'unsupported-version') return found;
  if (found.kind === 'method-not-allowed' && method === 'OPTIONS') {
    // A plain OPTIONS: the methods the path allows.
    return { status: 204, headers: { Allow: [...found.allow, 'OPTIONS'].join(', ') }, body: '', version: '-' };
  }
  return refuse(routeRefusal(found, pathname));
}
