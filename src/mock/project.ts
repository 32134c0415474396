/**
 * Version views: a record of the store is projected through a version's response schema, keeping
 * only the properties that schema declares (at every depth; `allOf`/`anyOf`/`oneOf` branches add
 * theirs; an object schema declaring no property is free-form and kept whole). One record thus
 * shows in each version's shape, and nothing the version does not declare leaks out.
 * A stored record's projected text is kept by ./view-cache.ts, so a record read again is not
 * viewed, projected nor serialized again.
 */
import { combinedSchemasOf, deref, type Json } from '../contract/index.ts';

export interface Projector {
  (value: unknown): unknown;
  /** The projector of one property (`[]`: of the items), when the schema declares it. */
  part?: (name: string) => Projector | undefined;
}

const identity: Projector = (value) => value;

export function createProjector(document: Json): (schema: Json) => Projector {
  const cache = new Map<object, Projector>();
  const compile = (node: Json): Projector => {
    const schema = deref(document, node);
    if (!schema || typeof schema !== 'object') return identity;
    const cached = cache.get(schema);
    if (cached) return cached;
    let compiled: Projector = identity;
    let part: (name: string) => Projector | undefined = () => undefined;
    const lazy: Projector = (value) => compiled(value);
    lazy.part = (name) => part(name);
    cache.set(schema, lazy);

    const properties = new Map<string, Json[]>();
    const items: Json[] = [];
    const visit = (branch: Json) => {
      const b = deref(document, branch);
      if (!b || typeof b !== 'object') return;
      for (const [name, property] of Object.entries<Json>(b.properties ?? {})) {
        properties.set(name, [...(properties.get(name) ?? []), property]);
      }
      if (b.items) items.push(b.items);
      for (const child of combinedSchemasOf(b)) visit(child);
    };
    visit(schema);
    const itemProjector =
      items.length === 0 ? identity : items.length === 1 ? compile(items[0]) : compile({ anyOf: items });
    const fields = [...properties].map(
      ([name, schemas]) => [name, schemas.length === 1 ? compile(schemas[0]) : compile({ anyOf: schemas })] as const,
    );
    part = (name) => (name === '[]' ? (items.length ? itemProjector : undefined) : byName.get(name));
    const byName = new Map(fields);
    compiled = (value) => {
      if (Array.isArray(value)) return items.length ? value.map(itemProjector) : value;
      if (value === null || typeof value !== 'object' || fields.length === 0) return value;
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, project] of fields) {
        if (!Object.hasOwn(source, name)) continue;
        const field = source[name];
        // A projector keeps a value that is no object or array as it is: not called for one.
        out[name] = field !== null && typeof field === 'object' ? project(field) : field;
      }
      return out;
    };
    return lazy;
  };
  return compile;
}
