/**
 * CORS for browser apps on another origin (a dev server on localhost:5173 calling the mock on :4010).
 * The mock is a development tool: every origin is allowed, echoed back so that credentialed requests
 * work too, and the headers a frontend reads (the served version, the auth challenge, Prism's
 * violations) are exposed.
 */
import { VERSION_HEADER } from '../contract/index.ts';

export const EXPOSED_HEADERS = [
  VERSION_HEADER,
  'WWW-Authenticate',
  'Allow',
  'sl-violations',
  'Content-Type',
  'X-Mock-Ignored-Filters',
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
