/**
 * Walks a recorded answer beside its response schema: the fields the contract lacks, the contract
 * fields present (to find those never present), and the values of fields whose allowed values the
 * spec does not show (a string schema without `enum`, its description saying the values are not
 * shown), and the nulls the contract allows (every response field is nullable under its policy:
 * where reality uses null is worth knowing). Combinators are followed: `allOf` parts all apply, `anyOf`/`oneOf` branches apply when
 * their type admits the value. An object schema without `properties` is free-form: nothing in it is
 * unknown.
 */
import { combinedSchemasOf, deref, type Json } from '../contract/index.ts';

export interface WalkSink {
  unknown(field: string): void;
  declared(field: string, present: boolean): void;
  value(field: string, value: string): void;
  /** A null the contract allows (a null it does not allow is a schema break). */
  null(field: string): void;
}

const NOT_SHOWN = /allowed values are not shown/i;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function admits(schema: Json, value: unknown): boolean {
  const declared = schema.type === undefined ? [] : [schema.type].flat();
  if (declared.length === 0) return true;
  const type = typeOf(value);
  return declared.includes(type) || (type === 'integer' && declared.includes('number'));
}

/** The schemas that apply to `value`: refs followed, allOf spread, fitting anyOf/oneOf branches. */
function applicable(document: Json, schemas: Json[], value: unknown, depth = 0): Json[] {
  const out: Json[] = [];
  for (const raw of schemas) {
    const schema = deref(document, raw);
    if (!schema || typeof schema !== 'object' || depth > 32) continue;
    if (!admits(schema, value)) continue;
    out.push(schema);
    out.push(...applicable(document, combinedSchemasOf(schema), value, depth + 1));
  }
  return out;
}

export function walkValue(document: Json, schemas: Json[], value: unknown, field: string, sink: WalkSink): void {
  const fitting = applicable(document, schemas, value);
  if (fitting.length === 0) return;
  if (value === null) {
    sink.null(field);
    return;
  }
  if (typeof value === 'string') {
    if (
      fitting.some((s) => typeof s.description === 'string' && NOT_SHOWN.test(s.description)) &&
      !fitting.some((s) => s.enum)
    ) {
      sink.value(field, value);
    }
    return;
  }
  if (Array.isArray(value)) {
    const items = fitting.flatMap((s) => (s.items ? [s.items] : []));
    for (const item of value) walkValue(document, items, item, `${field}[]`, sink);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const properties = new Map<string, Json[]>();
  for (const schema of fitting) {
    for (const [name, child] of Object.entries<Json>(schema.properties ?? {})) {
      properties.set(name, [...(properties.get(name) ?? []), child]);
    }
  }
  // Free-form (no properties anywhere, or additional properties allowed explicitly): nothing is unknown.
  const open =
    properties.size === 0 ||
    fitting.some(
      (s) => s.additionalProperties === true || (s.additionalProperties && typeof s.additionalProperties === 'object'),
    );
  const record = value as Record<string, unknown>;
  for (const [name, children] of properties) {
    sink.declared(`${field}.${name}`, name in record);
    if (name in record) walkValue(document, children, record[name], `${field}.${name}`, sink);
  }
  if (open) return;
  for (const name of Object.keys(record)) if (!properties.has(name)) sink.unknown(`${field}.${name}`);
}
