/**
 * Walks a recorded answer beside its response schema: the fields the contract lacks, and every
 * declared field (array items as `[]`) observed with its declaration: where it is written (the
 * bundle component and the path inside it, which is the source file `openapi/components/schemas/
 * <component>.yaml` and the same path there), whether it is nullable, required, and whether the
 * spec shows its allowed values (a string without `enum` whose description says "allowed values
 * are not shown" is open). Combinators are followed: `allOf` parts all apply, `anyOf`/`oneOf`
 * branches apply when their type admits the value. An object schema without `properties` is
 * free-form: nothing in it is unknown.
 */
import { deref, type Json } from '../contract/index.ts';

/** Where and how a field is declared. */
export interface Declaration {
  /** `Order#/properties/currency`: the component and the JSON pointer inside it (`#/…` alone: inline in an operation). */
  at: string;
  nullable: boolean;
  required: boolean;
  /** Its allowed values are not shown by the spec (and the contract states none). */
  open: boolean;
  /** The non-null JSON types the contract declares (empty: any). */
  types: string[];
}

export interface WalkSink {
  unknown(field: string): void;
  /** A declared field of an object seen (`present` false: absent), or an array item. */
  observe(field: string, declaration: Declaration, present: boolean, value: unknown): void;
}

const NOT_SHOWN = /allowed values are not shown/i;
const COMPONENT = '#/components/schemas/';

interface Located {
  schema: Json;
  /** `Order#/properties/lines`: where this schema is written. */
  at: string;
}

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

const pointerKey = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
const child = (at: string, ...keys: (string | number)[]) => `${at}/${keys.map(pointerKey).join('/')}`;

/** The schema a raw one names, and where it is written (a component's `$ref` starts a new place). */
function locate(document: Json, raw: Json, at: string): Located {
  const ref = raw && typeof raw === 'object' && typeof raw.$ref === 'string' ? (raw.$ref as string) : undefined;
  const place = ref?.startsWith(COMPONENT) ? `${ref.slice(COMPONENT.length)}#` : at;
  return { schema: deref(document, raw), at: place };
}

/**
 * The parts and branches of a located schema's combinators `keys`, each with where it is written
 * (src/contract's combinedSchemasOf drops the place, which a declaration needs).
 */
const partsOf = (here: Located, keys: string[]): Located[] =>
  keys.flatMap((key) =>
    ((here.schema[key] ?? []) as Json[]).map((part, i) => ({ schema: part, at: child(here.at, key, i) })),
  );

/** The schemas that apply to `value`: refs followed, allOf spread, fitting anyOf/oneOf branches. */
function applicable(document: Json, schemas: Located[], value: unknown, depth = 0): Located[] {
  const out: Located[] = [];
  for (const { schema: raw, at } of schemas) {
    const here = locate(document, raw, at);
    const schema = here.schema;
    if (!schema || typeof schema !== 'object' || depth > 32) continue;
    if (!admits(schema, value)) continue;
    out.push(here);
    out.push(...applicable(document, partsOf(here, ['allOf']), value, depth + 1));
    out.push(...applicable(document, partsOf(here, ['anyOf', 'oneOf']), value, depth + 1));
  }
  return out;
}

/** Every schema reachable from these: refs followed, every combinator's parts and branches. */
function reach(document: Json, schemas: Located[], depth = 0): Located[] {
  return schemas.flatMap(({ schema: raw, at }) => {
    const here = locate(document, raw, at);
    if (!here.schema || typeof here.schema !== 'object' || depth > 32) return [];
    return [here, ...reach(document, partsOf(here, ['allOf', 'anyOf', 'oneOf']), depth + 1)];
  });
}

const declared = new WeakMap<object, Map<string, Declaration>>();

/** How a field's schemas declare it (nullable, open, its types), once per document and place. */
function declare(document: Json, schemas: Located[], required: boolean): Declaration {
  const cache = declared.get(document) ?? new Map<string, Declaration>();
  declared.set(document, cache);
  const key = `${required} ${schemas.map((s) => s.at).join(' ')}`;
  const known = cache.get(key);
  if (known) return known;
  const declaration = declareOnce(document, schemas, required);
  cache.set(key, declaration);
  return declaration;
}

function declareOnce(document: Json, schemas: Located[], required: boolean): Declaration {
  const reached = reach(document, schemas);
  const types = new Set(reached.flatMap((l) => [l.schema.type ?? []].flat() as string[]));
  const nullable = types.has('null') && applicable(document, schemas, null).length > 0;
  types.delete('null');
  return {
    at: schemas[0]?.at ?? '#',
    nullable,
    required,
    open:
      reached.some((l) => typeof l.schema.description === 'string' && NOT_SHOWN.test(l.schema.description)) &&
      !reached.some((l) => l.schema.enum),
    types: [...types].sort(),
  };
}

/** A walk: the document its schemas live in and where what it sees goes. */
interface Walk {
  document: Json;
  sink: WalkSink;
}

/** Walks a response body (`body`, its fields `body.x`) against `schema` of `document`, telling `sink`. */
export function walkValue(document: Json, schema: Json, value: unknown, sink: WalkSink): void {
  walkLocated({ document, sink }, [{ schema, at: '#' }], value, 'body');
}

function walkLocated(walk: Walk, schemas: Located[], value: unknown, field: string): void {
  const { document, sink } = walk;
  const fitting = applicable(document, schemas, value);
  if (fitting.length === 0 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items = fitting.flatMap((l) =>
      l.schema.items ? [{ schema: l.schema.items, at: child(l.at, 'items') }] : [],
    );
    if (items.length === 0) return;
    const declaration = declare(document, items, true);
    for (const item of value) {
      sink.observe(`${field}[]`, declaration, true, item);
      walkLocated(walk, items, item, `${field}[]`);
    }
    return;
  }
  const properties = new Map<string, Located[]>();
  const required = new Set<string>();
  for (const { schema, at } of fitting) {
    for (const name of Array.isArray(schema.required) ? schema.required : []) required.add(name);
    for (const [name, raw] of Object.entries<Json>(schema.properties ?? {})) {
      properties.set(name, [...(properties.get(name) ?? []), { schema: raw, at: child(at, 'properties', name) }]);
    }
  }
  // Free-form (no properties anywhere, or additional properties allowed explicitly): nothing is unknown.
  const open =
    properties.size === 0 ||
    fitting.some(
      (l) =>
        l.schema.additionalProperties === true ||
        (l.schema.additionalProperties && typeof l.schema.additionalProperties === 'object'),
    );
  const record = value as Record<string, unknown>;
  for (const [name, children] of properties) {
    const present = name in record;
    sink.observe(`${field}.${name}`, declare(document, children, required.has(name)), present, record[name]);
    if (present) walkLocated(walk, children, record[name], `${field}.${name}`);
  }
  if (open) return;
  for (const name of Object.keys(record)) if (!properties.has(name)) sink.unknown(`${field}.${name}`);
}
