/**
 * The one sentence that names a broken rule, for every consumer of the validator (the mock's
 * refusals, the conformance runner's findings): what the rule wants, with the allowed values of an
 * enum and the types of a type rule spelled out, and the value received, truncated. A curl user
 * reads `body.status: must be one of new, open, pending, solved, closed (received "urgent")`.
 */
import type { ErrorObject } from 'ajv';

/** Longest received value shown, in characters of its JSON; longer ones end in `…`. */
export const RECEIVED_MAX = 40;

/** `"urgent"`, `42`, `{"a":1}`: the value as JSON, cut to {@link RECEIVED_MAX} characters. */
export function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > RECEIVED_MAX ? `${text.slice(0, RECEIVED_MAX - 1)}…` : text;
}

const listed = (values: unknown[]): string =>
  values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/**
 * What an ajv error says is wrong, without its field: `must be one of a, b (received "c")`. The
 * received value comes from `error.data` (the validator runs with `verbose`); a missing property
 * has none to show.
 */
export function ruleMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  let rule: string;
  if (error.keyword === 'enum') rule = `must be one of ${listed(params.allowedValues as unknown[])}`;
  else if (error.keyword === 'const') rule = `must be ${listed([params.allowedValue])}`;
  else if (error.keyword === 'type') rule = `must be ${[params.type].flat().join(' or ')}`;
  else if (error.keyword === 'required') return 'is required';
  else rule = error.message ?? 'is invalid';
  return 'data' in error ? `${rule} (received ${preview(error.data)})` : rule;
}
