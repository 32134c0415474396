/**
 * The shapes `drift --base-url` compares: per field (array elements as `[]`), the JSON types seen.
 * What is shape comes from the contract: the fields its walk knows (declared, or unknown to a
 * closed object); the keys of a free-form object (a schema declaring no properties, or allowing
 * additional ones) are data, never descended into. A recorded answer's records are compared with
 * the answered record of the same key (`id`, orders `number`) when the answer holds it, and all of
 * them as a whole with the whole answer (the union of the shapes), never page position by position.
 */
import type { Contract } from '../conformance/index.ts';
import { walkValue } from './walk.ts';

export type Shape = Map<string, Set<string>>;
type Kind = 'replay-missing' | 'replay-extra' | 'replay-type' | 'replay-empty';
export type ShapeSink = (kind: Kind, field: string, detail: string) => void;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return Number.isInteger(value) ? 'integer' : typeof value === 'number' ? 'number' : typeof value;
}

/**
 * Field → JSON types seen there, over the whole value. With `shaped` (the fields the contract's walk
 * knows), an object's key outside it is data (a free-form object's key) and not descended into.
 */
export function shapeOf(value: unknown, field = 'body', shape: Shape = new Map(), shaped?: Set<string>): Shape {
  const types = shape.get(field) ?? new Set<string>();
  types.add(typeOf(value));
  shape.set(field, types);
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${field}[]`, shape, shaped);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (!shaped || shaped.has(`${field}.${key}`)) shapeOf(child, `${field}.${key}`, shape, shaped);
    }
  }
  return shape;
}

/** The fields of an answer that the contract's walk knows; undefined when no schema is declared. */
export function shapedFields(
  contract: Contract,
  at: { operation: string; version: string; status: number },
  body: unknown,
): Set<string> | undefined {
  const operation = contract.find(at.version, at.operation);
  const declared = operation && contract.declaredResponse(operation, at.status);
  const schema = declared?.response?.content?.['application/json']?.schema;
  if (!operation || !schema) return undefined;
  const fields = new Set<string>();
  walkValue(contract.documentOf(operation.version), schema, body, {
    unknown: (field) => fields.add(field),
    observe: (field) => fields.add(field),
  });
  return fields;
}

/** The fields a field sits under: `body.results[].id` → `body.results[]`, `body.results`, `body`. */
function ancestors(field: string): string[] {
  const out: string[] = [];
  for (let rest = field; ; ) {
    const cut = rest.endsWith('[]') ? rest.length - 2 : rest.lastIndexOf('.');
    if (cut <= 0) return out;
    rest = rest.slice(0, cut);
    out.push(rest);
  }
}

const sorted = (types: Iterable<string>) => [...types].sort().join('|');
const nonNull = (types: Set<string>) => new Set([...types].filter((t) => t !== 'null'));

/**
 * The differences of an answered shape from a recorded one, one per cause (nothing under a field
 * already reported). `null` is a value, not a type: a field seen only as null on either side has no
 * type to compare. With `exact` (a record and the answered record of its key) the non-null types
 * must be the same; else (records as a whole) the answered ones must be among the recorded ones.
 */
export function diffShapes(recorded: Shape, replayed: Shape, add: ShapeSink, exact = true): void {
  const causes = new Set<string>();
  const report = (kind: Kind, field: string, detail: string) => {
    if (ancestors(field).some((parent) => causes.has(parent))) return;
    causes.add(field);
    add(kind, field, detail);
  };
  for (const [field, types] of recorded) {
    const other = replayed.get(field);
    if (!other) {
      const list = field.endsWith('[]') ? replayed.get(field.slice(0, -2)) : undefined;
      if (list?.has('array')) report('replay-empty', field, 'the server answered an empty list');
      else report('replay-missing', field, '');
      continue;
    }
    const [was, is] = [nonNull(types), nonNull(other)];
    if (was.size === 0 || is.size === 0) continue;
    const differs = exact ? sorted(was) !== sorted(is) : [...is].some((t) => !was.has(t));
    if (differs) report('replay-type', field, `recorded ${sorted(types)}, answered ${sorted(other)}`);
  }
  for (const field of replayed.keys()) if (!recorded.has(field)) report('replay-extra', field, '');
}

/** The records of an answer: a page's `results[]`, an array's elements, else none. */
function recordsOf(body: unknown): { field: string; items: unknown[] } | undefined {
  if (Array.isArray(body)) return { field: 'body[]', items: body };
  const results = (body as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? { field: 'body.results[]', items: results } : undefined;
}

/** A record's key: `id`, else an order's `number`. */
function keyOf(record: unknown): string | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const { id, number } = record as { id?: unknown; number?: unknown };
  const key = id ?? number;
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}

/**
 * Compares the recorded answers of one target with the server's answer: each recorded record with
 * the answered record of the same key, and every recorded answer as a whole with the whole answer.
 */
export function compareAnswers(
  recorded: { body: unknown; shaped?: Set<string> }[],
  answered: { body: unknown; shaped?: Set<string> },
  add: ShapeSink,
): void {
  const byKey = new Map<string, unknown>();
  const page = recordsOf(answered.body);
  for (const item of page?.items ?? []) {
    const key = keyOf(item);
    if (key !== undefined) byKey.set(key, item);
  }
  const whole: Shape = new Map();
  for (const answer of recorded) {
    shapeOf(answer.body, 'body', whole, answer.shaped);
    const records = recordsOf(answer.body);
    if (!page || !records || records.field !== page.field) continue;
    for (const item of records.items) {
      const match = byKey.get(keyOf(item) ?? '');
      if (match === undefined) continue;
      const mine = shapeOf(item, records.field, new Map(), answer.shaped);
      diffShapes(mine, shapeOf(match, page.field, new Map(), answered.shaped), add);
    }
  }
  diffShapes(whole, shapeOf(answered.body, 'body', new Map(), answered.shaped), add, false);
}
