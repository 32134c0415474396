/**
 * Reading the bundles' schemas for the fuzzer: a schema node together with its JSON pointer inside
 * the bundle (so ajv can validate a value against exactly that node), `$ref`s followed, `allOf`
 * merged, and the types a node allows.
 */
import { type Json, deref as resolveRef } from '../contract/index.ts';

/** A schema node (`$ref`s followed) and the JSON pointer of where it is in the bundle. */
export interface At {
  pointer: string;
  node: Json;
}

const unescapePointer = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');
export const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The node at `pointer`, following `$ref`s (each one moves the pointer to its target). */
export function at(document: Json, pointer: string): At {
  let current = pointer;
  for (let hops = 0; hops < 32; hops++) {
    const node = current
      .split('/')
      .slice(1)
      .map(unescapePointer)
      .reduce((parent: Json, key) => parent?.[key], document);
    if (!node || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return { pointer: current, node };
    current = node.$ref.slice(1);
  }
  throw new Error(`$ref loop at ${pointer}`);
}

/** A child node of `parent` (`properties`, `name` …), its pointer extended. */
export const child = (document: Json, parent: At, ...segments: string[]): At =>
  at(document, `${parent.pointer}/${segments.map(escapePointer).join('/')}`);

/**
 * The node with its `allOf` parts merged in (properties and `required` united, the first word on
 * any other keyword kept), for generating values; validation always uses the real node.
 */
export function merged(document: Json, node: Json): Json {
  if (!node || !Array.isArray(node.allOf)) return node ?? {};
  const { allOf, ...rest } = node;
  const out: Json = { ...rest };
  for (const part of allOf as Json[]) {
    const branch = merged(document, resolveRef(document, part));
    for (const [key, value] of Object.entries<Json>(branch ?? {})) {
      if (key === 'properties') out.properties = { ...value, ...(out.properties ?? {}) };
      else if (key === 'required') out.required = [...new Set([...(out.required ?? []), ...value])];
      else if (out[key] === undefined) out[key] = value;
    }
  }
  return out;
}

/** The JSON types a schema allows: its `type`, else inferred (`properties`: object…), else none said. */
export function typesOf(schema: Json): string[] {
  if (schema.type !== undefined) return [schema.type].flat() as string[];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/** The node of property `name` of an object schema, looking into its `allOf` parts too. */
export function propertyAt(document: Json, parent: At, name: string): At | undefined {
  if (parent.node?.properties && Object.hasOwn(parent.node.properties, name)) {
    return child(document, parent, 'properties', name);
  }
  const parts: Json[] = Array.isArray(parent.node?.allOf) ? parent.node.allOf : [];
  for (let i = 0; i < parts.length; i++) {
    const found = propertyAt(document, child(document, parent, 'allOf', String(i)), name);
    if (found) return found;
  }
  return undefined;
}
