/**
 * The mock's error bodies. Every refusal is an RFC 9457 problem (`application/problem+json`) with a
 * `validation` list naming each offending field and the rule it breaks:
 *
 *   { "type": "...", "title": "Invalid request", "status": 422, "detail": "...",
 *     "operation": "createGiftCard", "version": "<the version served>",
 *     "validation": [{ "field": "body.currency", "rule": "maxLength",
 *                      "message": "Request body property currency must NOT have more than 3 characters",
 *                      "location": ["body", "currency"] }] }
 *
 * `field` is `<where>.<path>` with `<where>` one of body, query, path, header; array indexes are
 * written `[i]`. `rule` is the JSON Schema keyword (type, enum, pattern, maxLength, maximum, format,
 * required...) or one of the mock's own: json (malformed body), uri (malformed path escape),
 * version (unsupported version),
 * security (missing/invalid bearer token), prefer (bad Prefer header).
 */
import type { ServerResponse } from 'node:http';
import { formatField, type Violation } from '../validation/index.ts';
import { PROBLEMS } from './problems.ts';

export type { Violation };

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

/** A violation as Prism reports it (request validation diagnostics or its generated 422). */
export interface PrismViolation {
  location?: (string | number)[];
  path?: (string | number)[];
  code?: string | number;
  message: string;
}

/**
 * Turns one Prism violation into `{field, rule, message, location}`: a `required` violation names
 * the missing property in its field, and header names get their documented casing back.
 */
export function normalizeViolation(violation: PrismViolation, headerNames: ReadonlyMap<string, string>): Violation {
  const location = (violation.location ?? violation.path ?? []).map(String);
  if (location.length === 0 && /\bbody\b/i.test(violation.message)) location.push('body');
  const rule = violation.code === undefined ? 'invalid' : String(violation.code);
  const missing = /required property '([^']+)'/.exec(violation.message)?.[1];
  if (rule === 'required' && missing && location.at(-1) !== missing) location.push(missing);
  if (location[0] === 'header' && location[1]) location[1] = headerNames.get(location[1].toLowerCase()) ?? location[1];
  return { field: formatField(location), rule, message: violation.message, location };
}

/** Type URIs by their historical names (the catalogue is ./problems.ts). */
export const PROBLEM_TYPES = {
  invalid: PROBLEMS.invalidRequest.type,
  malformedJson: PROBLEMS.malformedJson.type,
  malformedUrl: PROBLEMS.malformedUrl.type,
  unsupportedVersion: PROBLEMS.unsupportedVersion.type,
  unauthorized: PROBLEMS.unauthorized.type,
  notFound: PROBLEMS.notFound.type,
  methodNotAllowed: PROBLEMS.methodNotAllowed.type,
  badPrefer: PROBLEMS.badPrefer.type,
  tooLarge: PROBLEMS.tooLarge.type,
  internal: PROBLEMS.internal.type,
} as const;

export function problem(
  status: number,
  type: string,
  title: string,
  detail: string,
  validation: Violation[] = [],
  extra: Record<string, unknown> = {},
): Problem {
  return { type, title, status, detail, ...extra, validation };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): void {
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(payload),
  });
  response.end(payload);
}

export function sendProblem(response: ServerResponse, body: Problem, headers: Record<string, string> = {}): void {
  sendJson(response, body.status, body, 'application/problem+json', headers);
}
