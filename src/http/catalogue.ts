/**
 * The one catalogue of the package's problem types (RFC 9457): each refusal kind has a type URI owned
 * by this package (`urn:store-admin-mock:<name>`, documented in docs/mock.md), a title and a status.
 * Every refusal of the data-backed mock and the proxy is made by {@link refusal} from this table, so
 * no answer carries a type the package does not own.
 */
import type { Violation } from '../validation/index.ts';

/** A problem body (its shape: ./problem.ts). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  operation?: string;
  version?: string;
  validation: Violation[];
  [extra: string]: unknown;
}

const entry = (name: string, status: number, title: string) => ({
  type: `urn:store-admin-mock:${name}`,
  status,
  title,
});

export const PROBLEMS = {
  invalidRequest: entry('invalid-request', 422, 'Invalid request'),
  badRequest: entry('bad-request', 400, 'Bad request'),
  refusedByStore: entry('refused-by-store', 422, 'Request refused by the mock store'),
  limit: entry('limit-exceeded', 422, 'Mock limit exceeded'),
  malformedJson: entry('malformed-json', 400, 'Malformed JSON'),
  malformedBody: entry('malformed-body', 400, 'Malformed body'),
  malformedUrl: entry('malformed-url', 400, 'Malformed URL'),
  unsupportedVersion: entry('unsupported-version', 400, 'Unsupported API version'),
  badPrefer: entry('bad-prefer', 400, 'Invalid Prefer header'),
  unauthorized: entry('unauthorized', 401, 'Unauthorized'),
  insufficientScope: entry('insufficient-scope', 403, 'Insufficient scope'),
  notFound: entry('not-found', 404, 'Not found'),
  noSuchResponse: entry('no-such-response', 404, 'No such response'),
  noSuchExample: entry('no-such-example', 404, 'No such example'),
  methodNotAllowed: entry('method-not-allowed', 405, 'Method not allowed'),
  // `--static`'s (src/static): Prism cannot answer in a media type the request's Accept takes.
  notAcceptable: entry('not-acceptable', 406, 'Not acceptable'),
  tooLarge: entry('payload-too-large', 413, 'Payload too large'),
  unsupportedMediaType: entry('unsupported-media-type', 415, 'Unsupported media type'),
  scenario429: entry('scenario-429', 429, 'Too Many Requests'),
  scenario500: entry('scenario-500', 500, 'Internal Server Error'),
  scenario503: entry('scenario-503', 503, 'Service Unavailable'),
  busy: entry('busy', 503, 'Busy'),
  internal: entry('internal-error', 500, 'Mock error'),
  // The proxy's (src/proxy): its upstream unreachable, too slow, or answering beyond the size bound.
  badGateway: entry('bad-gateway', 502, 'Bad gateway'),
  gatewayTimeout: entry('gateway-timeout', 504, 'Upstream timeout'),
  upstreamTooLarge: entry('upstream-response-too-large', 502, 'Upstream answer too large'),
  adminRequest: entry('invalid-admin-request', 400, 'Invalid admin request'),
  adminForbidden: entry('admin-forbidden', 403, 'Admin endpoint forbidden'),
  resetConflict: entry('reset-conflict', 409, 'State reset during the write'),
  stateEvicted: entry('state-evicted', 410, 'State evicted'),
  stateFile: entry('state-file-unavailable', 503, 'State file unavailable'),
} as const;

export type ProblemKind = keyof typeof PROBLEMS;

/** A refusal: the problem body and the headers that go with it. */
export interface Refusal {
  body: Problem;
  headers?: Record<string, string>;
}

/** The one way to refuse: a problem of `kind` from the catalogue. */
export function refusal(
  kind: ProblemKind,
  detail: string,
  validation: Violation[] = [],
  extra: Record<string, unknown> = {},
): Refusal {
  const { type, title, status } = PROBLEMS[kind];
  return { body: { type, title, status, detail, ...extra, validation } };
}

/** A 405 for `path`, with the `Allow` header naming the methods it accepts (`GET, POST`). */
export function methodNotAllowed(path: string, allow: string): Refusal & { headers: { Allow: string } } {
  return { ...refusal('methodNotAllowed', `${path} accepts ${allow}.`), headers: { Allow: allow } };
}

/** The field a refusal names and the rule it breaks (the message is also the problem's detail). */
export interface FieldRule {
  field: string;
  rule: string;
  message: string;
}

/** A refusal naming one field and the rule it breaks; `extra` adds members to the problem body. */
export function fieldRefusal(
  kind: ProblemKind,
  { field, rule, message }: FieldRule,
  extra: Record<string, unknown> = {},
): Refusal {
  const location = field.replace(/\[(\d+)\]/g, '.$1').split('.');
  return refusal(kind, message, [{ field, rule, message, location }], extra);
}

/**
 * The mock's answer to its own failure (a bug, or an override that throws): the bare `internal`
 * problem, with no message, stack or file path of the error (the adapter logs those once).
 */
export const internalError = (): Problem => refusal('internal', 'The mock failed to answer this request.').body;
