/**
 * The values the contract's examples use, so valid requests name records a server holds (a server
 * loaded with the examples, as this package's mock is, accepts them), the way Schemathesis draws
 * from examples. Collected generically, with no list of fields: an operation's request body
 * examples whole, and the values of each field name anywhere in the bundle's examples (media
 * types', parameters', schemas' and `components/examples`), for the fields a body example leaves
 * out. ./operation.ts draws a share of the valid requests from these.
 */
import { deref, exampleValues, type Json, parameterExamples } from '../contract/index.ts';
import { typesOf } from './schema.ts';

/** What the contract's examples say of an operation's body. */
export interface BodyExamples {
  /** Its request body's JSON examples (`example`, `examples`), whole. */
  bodies: unknown[];
  /** The values of a field name anywhere in the bundle's examples. */
  named: (name: string) => unknown[];
}

type Pool = Map<string, Set<unknown>>;

const add = (pool: Pool, key: string, value: unknown) => {
  const values = pool.get(key) ?? new Set();
  pool.set(key, values.add(value));
};

/** Every scalar of an example value, keyed by its field name (an array's items keep the array's). */
function byName(value: unknown, name: string | undefined, pool: Pool): void {
  if (Array.isArray(value)) for (const item of value) byName(item, name, pool);
  else if (value !== null && typeof value === 'object') {
    for (const [field, item] of Object.entries(value)) byName(item, field, pool);
  } else if (name !== undefined) add(pool, name, value);
}

/** Walks the bundle: each `example`/`examples` keyword's data, named by its parameter or property. */
function walk(document: Json, node: Json, name: string | undefined, pool: Pool): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) walk(document, item, undefined, pool);
    return;
  }
  const own = typeof node.in === 'string' && typeof node.name === 'string' ? node.name : name;
  for (const [key, value] of Object.entries<Json>(node)) {
    if (key === 'example') byName(value, own, pool);
    else if (key === 'examples') for (const data of exampleValues(document, value)) byName(data, own, pool);
    else if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [property, schema] of Object.entries<Json>(value)) walk(document, schema, property, pool);
    } else walk(document, value, undefined, pool);
  }
}

const bundlePools = new WeakMap<object, Pool>();

/** The bundle's example values by field name (walked once per bundle). */
function namesOf(document: Json): Pool {
  let pool = bundlePools.get(document);
  if (!pool) {
    pool = new Map();
    walk(document, document, undefined, pool);
    bundlePools.set(document, pool);
  }
  return pool;
}

/** The operation's body examples, and the bundle's example values by name. */
export function bodyExamples(document: Json, requestBody: Json): BodyExamples {
  const media = deref(document, requestBody)?.content?.['application/json'];
  const bodies = [...(media && 'example' in media ? [media.example] : []), ...exampleValues(document, media?.examples)];
  const names = namesOf(document);
  return { bodies, named: (name) => [...(names.get(name) ?? [])] };
}

/** The example values of a path parameter: its own (the contract's `parameterExamples`), else those of its name that fit. */
export function pathExamples(document: Json, parameter: Json): unknown[] {
  const own = parameterExamples(parameter, document);
  if (own.length > 0) return own;
  const schema = deref(document, parameter.schema) ?? {};
  return [...(namesOf(document).get(String(parameter.name)) ?? [])].filter((value) => fits(schema, value));
}

/** Does the example value fit the (merged) schema's type and bounds? Another field's value of the same name may not. */
export function fits(schema: Json, value: unknown): boolean {
  const types = typesOf(schema);
  const integer = Number.isInteger(value) && types.includes('integer');
  const type =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? integer
            ? 'integer'
            : 'number'
          : typeof value;
  if (types.length > 0 && !types.includes(type)) return false;
  if (typeof value === 'number') {
    if (value < (schema.minimum ?? Number.NEGATIVE_INFINITY) || value > (schema.maximum ?? Number.POSITIVE_INFINITY)) {
      return false;
    }
    if (value <= (schema.exclusiveMinimum ?? Number.NEGATIVE_INFINITY)) return false;
    return value < (schema.exclusiveMaximum ?? Number.POSITIVE_INFINITY);
  }
  if (typeof value !== 'string') return true;
  if (value.length < (schema.minLength ?? 0) || value.length > (schema.maxLength ?? Number.POSITIVE_INFINITY)) {
    return false;
  }
  return typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(value);
}
