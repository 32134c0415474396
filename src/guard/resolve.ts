/**
 * Reads schemas of a bundled OpenAPI document the way the comparison needs them: `$ref`s followed
 * within the document, `allOf` merged, the repo's nullable wrapper (`anyOf: [X, {type: 'null'}]`)
 * unwrapped into X plus "accepts null", and `type` normalised to a set.
 */
import { DiffInputError, type Json, MAX_DEPTH } from './model.ts';

/** Follows internal `$ref`s (`#/components/...`); returns the target and the last ref name seen. */
export function deref(doc: Json, node: Json): { node: Json; ref?: string } {
  let current = node;
  let ref: string | undefined;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (hops > 32) throw new DiffInputError(`$ref loop at ${current.$ref}`);
    ref = current.$ref as string;
    if (!ref.startsWith('#/')) {
      throw new DiffInputError(`$ref ${JSON.stringify(ref)} points outside the bundle (rule no-external-ref)`);
    }
    const target = ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: Json, key) => at?.[key], doc);
    if (target === undefined) throw new DiffInputError(`unresolved $ref ${ref}`);
    // Sibling keywords of a $ref (3.1) override the target's (description mostly).
    const { $ref: _, ...siblings } = current;
    current = Object.keys(siblings).length > 0 && typeof target === 'object' ? { ...target, ...siblings } : target;
  }
  return { node: current, ref };
}

export interface Schema {
  /** Types other than null; undefined when the schema does not restrict the type. */
  types?: Set<string>;
  nullable: boolean;
  /** Allowed values other than null (`enum`, or `const` as a one-value enum). */
  enum?: unknown[];
  format?: string;
  properties: Record<string, Json>;
  required: Set<string>;
  /** `false`, `true`/absent (open), or a schema. */
  additionalProperties: Json;
  items?: Json;
  /** The branches of a (non-null) `anyOf`/`oneOf`, raw. */
  branches?: Json[];
  readOnly: boolean;
  writeOnly: boolean;
  /** Limits: maxLength, minimum, pattern… (only those present). */
  limits: Record<string, unknown>;
  /** The component name the schema came from, when it came through a `$ref`. */
  ref?: string;
}

export const LIMITS = [
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxItems',
  'minItems',
  'uniqueItems',
  'pattern',
  'multipleOf',
] as const;

const isNullSchema = (doc: Json, branch: Json): boolean => {
  const { node } = deref(doc, branch);
  return node?.type === 'null' || (Array.isArray(node?.type) && node.type.length === 1 && node.type[0] === 'null');
};

/**
 * The type a branch names when it says nothing else (`{type: string}`; an array of any items, an
 * object of any properties), else undefined.
 */
const bareType = (doc: Json, branch: Json): string | undefined => {
  const { node } = deref(doc, branch);
  if (typeof node?.type !== 'string') return undefined;
  const { type, description, items, additionalProperties, ...rest } = node;
  const anyItems = items === undefined || (typeof items === 'object' && Object.keys(items).length === 0);
  const anyProperties = additionalProperties === undefined || additionalProperties === true;
  return Object.keys(rest).length === 0 && anyItems && anyProperties ? type : undefined;
};

/** Merged `allOf` schemas, by the schema object they come from (shared parts are merged once). */
const mergedAllOf = new WeakMap<object, Json>();

/**
 * Merges `allOf` branches into one schema (properties merged, `required` united), at any depth up
 * to {@link MAX_DEPTH}: deeper, or an `allOf` that contains itself, is input the guard cannot
 * compare (DiffInputError, exit 3), never a silent "no changes".
 */
function mergeAllOf(doc: Json, schema: Json, depth = 0, path: Set<object> = new Set()): Json {
  if (!Array.isArray(schema?.allOf)) return schema;
  const known = mergedAllOf.get(schema);
  if (known) return known;
  if (path.has(schema)) throw new DiffInputError('allOf loop: a schema is part of its own allOf');
  if (depth >= MAX_DEPTH) throw new DiffInputError(`allOf chain nested deeper than ${MAX_DEPTH} levels`);
  path.add(schema);
  const { allOf, ...rest } = schema;
  const merged: Json = { ...rest };
  for (const part of allOf as Json[]) {
    const branch = mergeAllOf(doc, deref(doc, part).node, depth + 1, path);
    for (const [key, value] of Object.entries<Json>(branch ?? {})) {
      if (key === 'properties') merged.properties = { ...(merged.properties ?? {}), ...value };
      else if (key === 'required') merged.required = [...new Set([...(merged.required ?? []), ...value])];
      else if (merged[key] === undefined) merged[key] = value;
    }
  }
  path.delete(schema);
  mergedAllOf.set(schema, merged);
  return merged;
}

/**
 * anyOf/oneOf: drop `null` branches (they make the schema nullable: `nullBranch`); a single
 * remaining branch is the schema itself (the repo's nullable-object idiom), merged with the
 * wrapper's own keywords; branches that each only name a type are a type list; other branches stay
 * `branches`, compared one by one. A node without either is returned as it is.
 */
function unwrapBranches(
  doc: Json,
  node: Json,
  ref: string | undefined,
): { node: Json; ref: string | undefined; branches?: Json[]; nullBranch: boolean } {
  const key = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : undefined;
  if (!key) return { node, ref, nullBranch: false };
  const all: Json[] = node[key];
  const nonNull = all.filter((branch) => !isNullSchema(doc, branch));
  const nullBranch = nonNull.length < all.length;
  const { [key]: _, ...wrapper } = node;
  if (nonNull.length === 1) {
    const inner = deref(doc, nonNull[0]);
    const innerNode = mergeAllOf(doc, inner.node ?? {});
    const unwrapped = { ...innerNode, ...wrapper, type: innerNode.type ?? wrapper.type };
    return { node: unwrapped, ref: inner.ref ?? ref, nullBranch: nullBranch || innerNode.nullable === true };
  }
  if (nonNull.every((branch) => bareType(doc, branch) !== undefined)) {
    // Branches that each only name a type are a type list (`anyOf: [{type: string}, {type:
    // number}]` is `type: [string, number]`): compared as one, not branch by branch.
    return { node: { ...wrapper, type: nonNull.map((branch) => bareType(doc, branch)) }, ref, nullBranch };
  }
  return { node: wrapper, ref, branches: nonNull, nullBranch };
}

/** Reads a raw schema (possibly a `$ref`) of `doc` into the normalised form. */
export function readSchema(doc: Json, raw: Json): Schema {
  const resolved = deref(doc, raw ?? {});
  const merged: Json = mergeAllOf(doc, resolved.node ?? {});
  const { node, ref, branches, nullBranch } = unwrapBranches(doc, merged, resolved.ref);
  let nullable = merged.nullable === true || nullBranch;

  let types: Set<string> | undefined;
  if (node.type !== undefined) {
    const list: string[] = Array.isArray(node.type) ? node.type : [node.type];
    if (list.includes('null')) nullable = true;
    types = new Set(list.filter((t) => t !== 'null'));
  } else if (node.properties || node.additionalProperties !== undefined) {
    types = new Set(['object']);
  } else if (node.items) {
    types = new Set(['array']);
  }

  let values: unknown[] | undefined = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : undefined;
  if (values?.includes(null)) {
    nullable = true;
    values = values.filter((v) => v !== null);
  }

  const limits: Record<string, unknown> = {};
  for (const limit of LIMITS) if (node[limit] !== undefined) limits[limit] = node[limit];

  return {
    types,
    nullable,
    enum: values,
    format: node.format,
    properties: node.properties ?? {},
    required: new Set(Array.isArray(node.required) ? node.required : []),
    additionalProperties: node.additionalProperties,
    items: node.items,
    branches,
    readOnly: node.readOnly === true,
    writeOnly: node.writeOnly === true,
    limits,
    ref,
  };
}

/** The component name of a raw branch (`#/components/schemas/Order` -> `Order`), if it is a ref. */
export const refName = (raw: Json): string | undefined =>
  typeof raw?.$ref === 'string' ? (raw.$ref as string).split('/').pop() : undefined;
