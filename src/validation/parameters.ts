/**
 * An operation's path and query parameters as a request sends them (text): their kinds read from the
 * bundle, and each value coerced to its kind before ./request.ts checks it against the schema
 * (arrays: repeated or comma-separated values; integers beyond 2^53 - 1 refused here).
 */
import { deref, type Json } from '../contract/index.ts';
import type { Violation } from './field.ts';
import { preview } from './message.ts';

export interface ParamSpec {
  name: string;
  /** `array`, `boolean`, `integer`, `number` or `string`. */
  kind: string;
  itemKind?: string;
}

const kindOf = (document: Json, schema: Json): string => {
  const resolved = deref(document, schema) ?? {};
  const types = [resolved.type].flat().filter((t) => t && t !== 'null');
  return (types[0] as string | undefined) ?? 'string';
};

/** The path and query parameters of an operation, with their kinds. */
export function paramSpecs(document: Json, params: Json[]) {
  const pathParams: ParamSpec[] = params
    .filter((p) => p?.in === 'path')
    .map((p) => ({ name: String(p.name), kind: kindOf(document, p.schema) }));
  const queryDefs = params.filter((p) => p?.in === 'query');
  const queryParams: ParamSpec[] = queryDefs.map((p) => {
    const kind = kindOf(document, p.schema);
    const items = kind === 'array' ? deref(document, p.schema)?.items : undefined;
    return { name: String(p.name), kind, ...(items && { itemKind: kindOf(document, items) }) };
  });
  return { pathParams, queryParams, queryDefs };
}

/** Path values coerced to their kinds; an integer that is not one, or beyond 2^53 − 1, is a violation. */
export function coercePath(pathParams: ParamSpec[], values: Record<string, string>) {
  const violations: Violation[] = [];
  const coerced: Record<string, string | number> = {};
  for (const param of pathParams) {
    const text = values[param.name] ?? '';
    const field = `path.${param.name}`;
    const location = ['path', param.name];
    if (param.kind !== 'integer') {
      coerced[param.name] = text;
    } else if (!/^-?\d+$/.test(text)) {
      violations.push({
        field,
        rule: 'type',
        message: `${field}: must be integer (received ${preview(text)})`,
        location,
      });
    } else if (!Number.isSafeInteger(Number(text))) {
      const message = `${field}: must be an integer within ±${Number.MAX_SAFE_INTEGER} (received ${preview(text)})`;
      violations.push({ field, rule: 'maximum', message, location });
    } else {
      coerced[param.name] = Number(text);
    }
  }
  return { coerced, violations };
}

/** The query, coerced per the parameter kinds (arrays: repeated or comma-separated values). */
export function queryOf(queryParams: ParamSpec[], search: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  if (search.size === 0) return query;
  // The names sent, once: a declared parameter not sent costs a look-up, not a walk of the query
  // and an array (a list declares a score of filters; a request sends one or two).
  const sent = new Set(search.keys());
  for (const param of queryParams) {
    if (!sent.has(param.name)) continue;
    const all = search.getAll(param.name);
    if (all.length === 0) continue;
    query[param.name] =
      param.kind === 'array' ? itemsOf(param.itemKind, all) : coerce(param.kind, all[all.length - 1] as string);
  }
  return query;
}

/** An array parameter's items, repeated or comma-separated, coerced (a loop: flatMap cost a list ~2 µs, perf). */
function itemsOf(kind: string | undefined, all: string[]): unknown[] {
  const items: unknown[] = [];
  for (const value of all) {
    if (!value.includes(',')) items.push(coerce(kind, value));
    else for (const item of value.split(',')) items.push(coerce(kind, item));
  }
  return items;
}

function coerce(kind: string | undefined, text: string): unknown {
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (kind === 'integer') return /^-?\d{1,16}$/.test(text) ? Number(text) : text;
  if (kind === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}
