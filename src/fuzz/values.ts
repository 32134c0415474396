/**
 * Valid values drawn from a JSON Schema with fast-check: enums and consts, every declared type, the
 * bounds (fast-check biases integers and lengths towards their limits), formats and patterns.
 * `force` names a path (property names, `0` for the first array item) that must be present in the
 * value, so a rule of a nested optional field can then be broken once (./breakers.ts); `minimal`
 * leaves every optional property out (the base of an invalid request, so nothing else masks the
 * rule it breaks). `where` draws from the contract's examples instead (./examples.ts): a body
 * example's fields as it has them, and a field it leaves out from the values of its name.
 */
import fc from 'fast-check';
import { deref, type Json } from '../contract/index.ts';
import { fits } from './examples.ts';
import { merged, typesOf } from './schema.ts';

type Arb = fc.Arbitrary<unknown>;

/** A body value drawn from the contract's examples (./examples.ts): its field name, and the example's value there. */
/** How to draw a value: the path `force` present, at `depth`, optional parts left out if `minimal`, from `where`. */
export interface Draw {
  force: string[];
  depth: number;
  minimal: boolean;
  where?: Where;
}

export interface Where {
  /** The values of a field name in the bundle's examples. */
  named: (name: string) => unknown[];
  name?: string;
  /** The body example's value at this position (`undefined`: the example leaves it out, or none). */
  example?: unknown;
}

const INT32 = 2 ** 31;
/** Deepest nesting drawn; below it a schema that allows anything gets a scalar. */
const MAX_DEPTH = 5;

/** Any JSON value, small: for a schema that says nothing of its type (the contract's AnyValue). */
const anyJson = (depth: number): Arb =>
  depth >= MAX_DEPTH
    ? fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null))
    : fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.integer(), { maxKeys: 3 }),
      );

const pad = (n: number) => String(n).padStart(2, '0');
const dates = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2099-12-31T00:00:00Z'),
  noInvalidDate: true,
});
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  date: dates.map((d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`),
  'date-time': dates.map((d) => d.toISOString()),
  email: fc
    .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('example.com', 'shop.example', 'mail.test'))
    .map(([user, domain]) => `${user}@${domain}`),
  uri: fc.stringMatching(/^[a-z0-9-]{0,16}$/).map((path) => `https://example.com/${path}`),
  uuid: fc.uuid(),
};

function stringOf(schema: Json): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? minLength + 24, minLength + 64);
  const fits = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format) return format.filter(fits);
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits);
  // Mostly ASCII, sometimes any Unicode: a server must take both.
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 3 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 1 },
  );
}

function numberOf(schema: Json, integer: boolean): Arb {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  if (integer) {
    const min = schema.minimum ?? (exclusiveMin !== undefined ? Math.floor(exclusiveMin) + 1 : -INT32);
    const max = schema.maximum ?? (exclusiveMax !== undefined ? Math.ceil(exclusiveMax) - 1 : INT32 - 1);
    return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
  }
  const min = schema.minimum ?? exclusiveMin ?? -1e9;
  const max = schema.maximum ?? exclusiveMax ?? 1e9;
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: exclusiveMin !== undefined })
    .filter((n) => exclusiveMax === undefined || n < exclusiveMax);
}

function arrayOf(document: Json, schema: Json, draw: Draw): Arb {
  const { force, depth, minimal, where } = draw;
  const items = schema.items ?? {};
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
  // Items keep the array's name (`tags` → each tag); an example's array gives its items one by one.
  const at = where && { ...where, example: undefined };
  if (where && Array.isArray(where.example) && force.length === 0) {
    return fc.tuple(
      ...where.example.map((example) =>
        valuesOf(document, items, { depth: depth + 1, minimal, where: { ...where, example } }),
      ),
    );
  }
  const item = valuesOf(document, items, { depth: depth + 1, minimal, where: at });
  if (force[0] !== '0') return fc.array(item, { minLength, maxLength });
  // The forced path goes through the first item: one is always there.
  const first = valuesOf(document, items, { force: force.slice(1), depth: depth + 1, minimal, where: at });
  return fc
    .tuple(first, fc.array(item, { minLength: Math.max(0, minLength - 1), maxLength: Math.max(0, maxLength - 1) }))
    .map(([head, rest]) => [head, ...rest]);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function objectOf(document: Json, schema: Json, draw: Draw): Arb {
  const { force, depth, minimal, where } = draw;
  const model: Record<string, Arb> = {};
  const properties: Record<string, Json> = schema.properties ?? {};
  // The fields an example holds are sent, as it sends them (a minimal request still leaves optional ones out).
  const example = isRecord(where?.example) ? where.example : {};
  const sent = (name: string) =>
    Object.hasOwn(properties, name) && deref(document, properties[name])?.readOnly !== true;
  const shown = minimal ? [] : Object.keys(example).filter(sent);
  const required = new Set<string>([
    ...(schema.required ?? []),
    ...(force[0] !== undefined ? [force[0]] : []),
    ...shown,
  ]);
  for (const [name, property] of Object.entries<Json>(properties)) {
    if (deref(document, property)?.readOnly === true) continue; // never sent in a request
    if (minimal && !required.has(name)) continue;
    const at = where && { named: where.named, name, example: example[name] };
    const forced = force[0] === name ? force.slice(1) : [];
    model[name] = valuesOf(document, property, { force: forced, depth: depth + 1, minimal, where: at });
  }
  // A required property the schema does not describe: any value.
  for (const name of required) model[name] ??= anyJson(depth + 1);
  return fc.record(model, { requiredKeys: [...required] });
}

/** With `where`, the body example's own value here, if a scalar's or an open object's (no `properties`) that fits. */
function pinned(schema: Json, where?: Where): Arb | undefined {
  if (where?.example === undefined || Array.isArray(where.example)) return undefined;
  if (isRecord(where.example) && schema.properties) return undefined;
  return fits(schema, where.example) ? fc.constant(where.example) : undefined;
}

/** With `where` and no example value here, a scalar field's values of the same name in the bundle's examples, if any fit. */
function named(schema: Json, types: string[], own: Arb, where?: Where): Arb {
  if (where?.name === undefined || types.includes('object') || types.includes('array')) return own;
  const values = where.named(where.name).filter((value) => fits(schema, value));
  // fast-check shrinks towards the first value.
  return values.length === 0 ? own : fc.constantFrom(...values);
}

/**
 * A valid value of `raw` (a schema or `$ref`), with the path `force` present (optional parts left
 * out if `minimal`); with `where`, the body example's values, else the bundle's examples of a field's name.
 */
export function valuesOf(document: Json, raw: Json, options: Partial<Draw> = {}): Arb {
  const { force = [], depth = 0, minimal = false, where } = options;
  const draw = { force, depth, minimal, where };
  const schema = merged(document, deref(document, raw) ?? {});
  const example = force.length === 0 ? pinned(schema, where) : undefined;
  if (example) return example;
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const variants: Json[] | undefined = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) {
    const { anyOf: _a, oneOf: _o, ...own } = schema;
    return fc.oneof(...variants.map((variant) => valuesOf(document, { ...own, ...deref(document, variant) }, draw)));
  }
  let types = typesOf(schema);
  if (force.length > 0) types = types.filter((t) => t === 'object' || t === 'array');
  if (types.length === 0)
    return force.length > 0 ? objectOf(document, {}, { ...draw, where: undefined }) : anyJson(depth);
  const drawn = fc.oneof(
    ...types.map((type): Arb => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return numberOf(schema, true);
        case 'number':
          return fc.oneof(numberOf(schema, true), numberOf(schema, false));
        case 'string':
          return stringOf(schema);
        case 'array':
          return depth >= MAX_DEPTH ? fc.constant([]) : arrayOf(document, schema, draw);
        default:
          return depth >= MAX_DEPTH ? fc.constant({}) : objectOf(document, schema, draw);
      }
    }),
  );
  return named(schema, types, drawn, where);
}
