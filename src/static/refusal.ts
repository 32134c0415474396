/**
 * Prism's verdict on a request that breaks the contract, as the package's refusal: its violations
 * normalized to `{field, rule, message, location}` (the data-backed mock's shape, src/http), the
 * strict path check's added, and each status Prism gives mapped to its kind of the one problem
 * catalogue (src/http/catalogue.ts), so `--static` answers with the same types as the engine.
 */
import {
  type MockPreferences,
  type ProblemKind,
  type Refusal,
  refusal,
  summarize,
  type Violation,
} from '../http/index.ts';
import { formatField } from '../validation/index.ts';
import type { PrismError, PrismViolation, Target } from './prism.ts';

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

/** The catalogue's kind of each status Prism refuses with (its router's and mocker's errors). */
const KIND_OF_STATUS: Record<number, ProblemKind> = {
  400: 'badRequest',
  401: 'unauthorized',
  404: 'notFound',
  405: 'methodNotAllowed',
  406: 'notAcceptable',
  413: 'tooLarge',
  415: 'unsupportedMediaType',
  422: 'invalidRequest',
};

/** The kind of a refusal Prism answered with `status` (anything else, e.g. its 500s: `internal`). */
function kindOf(status: number, preferences: MockPreferences): ProblemKind {
  // A status or example asked for with `Prefer` that the operation does not declare.
  if (status === 404 && preferences.example !== undefined) return 'noSuchExample';
  if (status === 404 && preferences.code !== undefined) return 'noSuchResponse';
  return KIND_OF_STATUS[status] ?? 'internal';
}

/**
 * Prism's verdict as a refusal: 422 with every violation (Prism's and the strict path check's),
 * 415 for a body that is not JSON, 404 for an example or status the operation does not have (with
 * the ones it has), anything else as the catalogue's kind of Prism's status.
 */
export function prismRefusal(
  verdict: { error: PrismError | undefined; pathViolations: Violation[] },
  headerNames: ReadonlyMap<string, string>,
  target: Target,
  preferences: MockPreferences,
): Refusal {
  const { error, pathViolations } = verdict;
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
    return refusal('invalidRequest', detail, violations, context);
  }
  let detail = error?.detail ?? error?.message ?? 'The mock cannot answer this request.';
  if (status === 404 && (preferences.example !== undefined || preferences.code !== undefined)) {
    const available = Object.entries(target.examples)
      .map(([code, names]) => `${code}${names.length ? ` (examples: ${names.join(', ')})` : ''}`)
      .join('; ');
    detail = `${detail} ${target.operationId} (${target.version}) declares: ${available}.`;
  }
  if (violations.length > 0) detail = `${detail} Violations: ${summarize(violations)}.`;
  return refusal(kindOf(status, preferences), detail, violations, context);
}
