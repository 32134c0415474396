/**
 * Stage route: a CORS preflight is answered at once; a path with a malformed escape is refused
 * (400); the mock's admin paths (/__mock/...) are served; the path and method are routed (404, 405; an OPTIONS
 * request gets the allowed methods). What is left for the version stage is a matched route or a
 * version the endpoint does not list.
 */

import type { RouteResult } from '../../contract/index.ts';
import { VERSION_HEADER } from '../../contract/index.ts';
import { isDecodablePath, malformedUrl, parseTarget, preflightHeaders, routeRefusal } from '../../http/index.ts';
import { adminPreflight } from '../admin/guard.ts';
import { answerAdmin, isAdminPath } from '../admin/routes.ts';
import type { EngineCore, Incoming, RawRequest, RawResponse, Target } from './context.ts';
import { refuse } from './respond.ts';

export const RESET_PATH = '/__mock/reset';

export type Routed = Extract<RouteResult<Target>, { kind: 'matched' | 'unsupported-version' }>;

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
  // A malformed percent-escape cannot be routed.
  if (!isDecodablePath(pathname)) return refuse(malformedUrl(pathname));
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
