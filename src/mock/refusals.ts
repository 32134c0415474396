/**
 * The refusal bodies of the mock (see ./errors.ts for their shape): unroutable requests (path,
 * method, version), a bad Prefer header, a missing token, and Prism's verdict on a request that
 * breaks the contract.
 */

import { VERSION_HEADER } from '../contract/index.ts';
import { normalizeViolation, PROBLEM_TYPES, problem, type Violation } from './errors.ts';
import type { MockPreferences } from './prefer.ts';
import type { PrismError, Target } from './prism.ts';
import { type Refusal, refusal } from './problems.ts';
import type { RouteResult } from './router.ts';

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
      return refusal('methodNotAllowed', `${route.path} accepts ${allow}.`, [], {}, { Allow: allow });
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
  return refusal(
    'unauthorized',
    message,
    [{ field: 'header.Authorization', rule: 'security', message, location: ['header', 'Authorization'] }],
    context,
    { 'WWW-Authenticate': challenge },
  );
}

/**
 * Prism's verdict as a refusal: 422 with every violation (Prism's and the strict path check's),
 * 415 for a body that is not JSON, 404 for an example or status the operation does not have (with
 * the ones it has), anything else as Prism says.
 */
export function prismRefusal(
  error: PrismError | undefined,
  pathViolations: Violation[],
  headerNames: ReadonlyMap<string, string>,
  target: Target,
  preferences: MockPreferences,
): Refusal {
  const context = { operation: target.operationId, version: target.version };
  const status = error ? (error.status ?? 500) : 422;
  const violations = [
    ...pathViolations,
    ...(error?.additional?.validation ?? [])
      .map((v) => normalizeViolation(v, headerNames))
      .filter((v) => !pathViolations.some((p) => p.field === v.field)),
  ];
  if (status === 415) {
    const message = `${error?.detail ?? 'Unsupported content type'}; send Content-Type: application/json.`;
    violations.push({
      field: 'header.Content-Type',
      rule: 'content-type',
      message,
      location: ['header', 'Content-Type'],
    });
  }
  if ((status === 422 || pathViolations.length > 0) && violations.length > 0) {
    const detail = `The request breaks the contract of ${target.operationId} (${target.version}): ${summarize(violations)}.`;
    return { body: problem(422, PROBLEM_TYPES.invalid, 'Invalid request', detail, violations, context) };
  }
  let detail = error?.detail ?? error?.message ?? 'The mock cannot answer this request.';
  if (status === 404 && (preferences.example !== undefined || preferences.code !== undefined)) {
    const available = Object.entries(target.examples)
      .map(([code, names]) => `${code}${names.length ? ` (examples: ${names.join(', ')})` : ''}`)
      .join('; ');
    detail = `${detail} ${target.operationId} (${target.version}) declares: ${available}.`;
  }
  if (violations.length > 0) detail = `${detail} Violations: ${summarize(violations)}.`;
  const type = error?.name || PROBLEM_TYPES.internal;
  return { body: problem(status, type, error?.message || 'Error', detail, violations, context) };
}
