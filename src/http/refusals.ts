/**
 * The refusal bodies of the mock (see ./problem.ts for their shape): unroutable requests (path,
 * method, version), a bad Prefer header, a missing token. Shared by the data-backed engine and the
 * static mode (src/static), which adds Prism's verdict.
 */

import { type RouteResult, VERSION_HEADER } from '../contract/index.ts';
import { MAX_BODY_BYTES } from './body.ts';
import { fieldRefusal, methodNotAllowed, type Refusal, refusal } from './catalogue.ts';
import type { Violation } from './problem.ts';

export type { Refusal };

type Context = { operation: string; version: string };

export function summarize(violations: Violation[]): string {
  return violations.map((v) => `${v.field} (${v.rule})`).join(', ');
}

export function malformedUrl(pathname: string): Refusal {
  const message = `The path ${pathname} has a malformed percent-escape.`;
  return refusal('malformedUrl', message, [{ field: 'path', rule: 'uri', message, location: ['path'] }]);
}

/** 404 (unknown path), 405 (unknown method) or 400 (a version the endpoint does not list). */
export function routeRefusal(route: Exclude<RouteResult<unknown>, { kind: 'matched' }>, pathname: string): Refusal {
  switch (route.kind) {
    case 'not-found': {
      const hint = route.suggestion ? ` Did you mean ${route.suggestion}? (paths end with a slash)` : '';
      return refusal('notFound', `No operation at ${pathname}.${hint}`);
    }
    case 'method-not-allowed': {
      const allow = route.allow.join(', ');
      return methodNotAllowed(route.path, allow);
    }
    case 'unsupported-version': {
      const message = `${VERSION_HEADER} must be one of: ${route.allowed.join(', ')} (received "${route.received}").`;
      return refusal(
        'unsupportedVersion',
        `${route.method.toUpperCase()} ${route.path} is not served under version "${route.received}". ${message}`,
        [{ field: `header.${VERSION_HEADER}`, rule: 'version', message, location: ['header', VERSION_HEADER] }],
        { header: VERSION_HEADER, received: route.received, allowed: route.allowed },
      );
    }
  }
}

export function badPrefer(reason: string, context: Context): Refusal {
  const message = `Prefer: ${reason}.`;
  return refusal(
    'badPrefer',
    message,
    [{ field: 'header.Prefer', rule: 'prefer', message, location: ['header', 'Prefer'] }],
    context,
  );
}

/** 401: the token is missing or not a bearer token (`denied`), or the client asked for it (`Prefer: code=401`). */
export function unauthorized(authorization: string | undefined, denied: boolean, context: Context): Refusal {
  const message = !denied
    ? 'This 401 was asked for with "Prefer: code=401"; the token was valid.'
    : authorization
      ? 'Authorization must be "Bearer <ACCESS_TOKEN>" with a non-empty token.'
      : 'The Authorization header is missing; send "Authorization: Bearer <ACCESS_TOKEN>".';
  const challenge = authorization ? 'Bearer realm="store-admin", error="invalid_token"' : 'Bearer realm="store-admin"';
  const violation = { field: 'header.Authorization', rule: 'security', message, location: ['header', 'Authorization'] };
  return { ...refusal('unauthorized', message, [violation], context), headers: { 'WWW-Authenticate': challenge } };
}

/** 413: a body over MAX_BODY_BYTES (announced by its Content-Length, or read). */
export function bodyTooLarge(context: Context): Refusal {
  return fieldRefusal(
    'tooLarge',
    { field: 'body', rule: 'maxBytes', message: `The mock accepts bodies up to ${MAX_BODY_BYTES} bytes.` },
    context,
  );
}

/** 400: a JSON body that does not parse (`error` is JSON.parse's). */
export function malformedJson(error: Error, context: Context): Refusal {
  const message = `Malformed JSON body: ${error.message}`;
  const violation = { field: 'body', rule: 'json', message, location: ['body'] };
  return refusal('malformedJson', 'The request body is not valid JSON.', [violation], context);
}

/** 415: a body in a media type (rule `content-type`) or charset (rule `charset`) the server does not read. */
export function unsupportedMediaType(rule: 'content-type' | 'charset', message: string, context: Context): Refusal {
  const violation = { field: 'header.Content-Type', rule, message, location: ['header', 'Content-Type'] };
  return refusal('unsupportedMediaType', `header.Content-Type: ${message}`, [violation], context);
}
