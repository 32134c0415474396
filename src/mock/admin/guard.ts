/**
 * What keeps a web page from driving the admin endpoints: a browser sends a cross-origin POST or
 * DELETE with `Content-Type: application/json` only after a CORS preflight, and the admin paths grant
 * CORS to loopback origins only (a dev server on localhost; the inspector is same-origin). So every
 * admin POST/DELETE must carry that content type ({@link contentTypeRefusal}), and answers under
 * `/__mock/` carry CORS headers only for a loopback origin ({@link adminCors}).
 */
import { corsHeaders, preflightHeaders } from '../cors.ts';
import { fieldRefusal, type Refusal } from '../problems.ts';

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
  return fieldRefusal('unsupportedMediaType', 'header.Content-Type', 'content-type', message);
}
