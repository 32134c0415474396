/**
 * The mock's error bodies. Every refusal is an RFC 9457 problem (`application/problem+json`) with a
 * `validation` list naming each offending field and the rule it breaks:
 *
 *   { "type": "...", "title": "Invalid request", "status": 422, "detail": "...",
 *     "operation": "createGiftCard", "version": "<the version served>",
 *     "validation": [{ "field": "body.currency", "rule": "maxLength",
 *                      "message": "body.currency: must NOT have more than 3 characters (received \"EURO\")",
 *                      "location": ["body", "currency"] }] }
 *
 * `field` is `<where>.<path>` with `<where>` one of body, query, path, header; array indexes are
 * written `[i]`. `rule` is the JSON Schema keyword (type, enum, pattern, maxLength, maximum, format,
 * required...) or one of the mock's own: json (malformed body), uri (malformed path escape),
 * version (unsupported version),
 * security (missing/invalid bearer token), prefer (bad Prefer header).
 */
import type { Violation } from '../validation/index.ts';
import { PROBLEMS, type Problem } from './catalogue.ts';

export type { Violation };

/** Type URIs by their historical names (the catalogue is ./catalogue.ts). */
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

/** What a problem body holds: its type, title, status and detail, the violations, extra members. */
export interface ProblemFields {
  status: number;
  type: string;
  title: string;
  detail: string;
  validation?: Violation[];
  extra?: Record<string, unknown>;
}

/** A problem body of any type (the mock's own refusals come from the catalogue: ./catalogue.ts `refusal`). */
export function problem({ status, type, title, detail, validation = [], extra = {} }: ProblemFields): Problem {
  return { type, title, status, detail, ...extra, validation };
}
