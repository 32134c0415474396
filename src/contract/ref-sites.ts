/**
 * Where a schema's components sit in the data it describes: every `$ref` a schema reaches, with the
 * data path it describes (`results[]` of a page, a field of a body). The proxy finds a collection's
 * records in an answer this way, and the mock's model checks that each collection's component is a
 * record of an operation serving it (the body, an item of `results`, an element of the body).
 */
import { type BundleOperation, combinedSchemasOf, deref, type Json, responseMediaOf } from './bundles.ts';

/** A data path: property names and `[]` for every element of an array. */
export type DataPath = string[];

/** Where a record sits in an answer that carries it: the body, an item of its `results`, an element. */
export const RECORD_PATHS: readonly (readonly string[])[] = [[], ['results', '[]'], ['[]']];

/** The component a `$ref` names: `#/components/schemas/Subscription` → `Subscription`. */
export const componentName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

export const samePath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((s, i) => s === b[i]);

/** Every `$ref` reached by a schema, with the data path it describes (cycles cut). */
export function refSites(
  document: Json,
  node: Json,
  path: DataPath = [],
  seen = new Set<string>(),
): { ref: string; path: DataPath }[] {
  if (!node || typeof node !== 'object') return [];
  const out: { ref: string; path: DataPath }[] = [];
  if (typeof node.$ref === 'string') {
    out.push({ ref: node.$ref, path });
    if (seen.has(node.$ref)) return out;
    return [...out, ...refSites(document, deref(document, node), path, new Set([...seen, node.$ref]))];
  }
  for (const branch of combinedSchemasOf(node)) out.push(...refSites(document, branch, path, seen));
  for (const [name, child] of Object.entries<Json>(node.properties ?? {})) {
    out.push(...refSites(document, child, [...path, name], seen));
  }
  if (node.items) out.push(...refSites(document, node.items, [...path, '[]'], seen));
  return out;
}

/** The schema of an operation's success answer (200, else its first 2xx). */
export function successSchemaOf(document: Json, operation: BundleOperation): Json {
  const responses = operation.operation.responses ?? {};
  const code = '200' in responses ? '200' : Object.keys(responses).find((c) => /^2/.test(c));
  return code === undefined ? undefined : responseMediaOf(document, operation, code)?.schema;
}

/** The components that are a record of an operation's success answer (at one of {@link RECORD_PATHS}). */
export function recordComponentsOf(document: Json, operation: BundleOperation): string[] {
  const sites = refSites(document, successSchemaOf(document, operation));
  const records = sites.filter((site) => RECORD_PATHS.some((path) => samePath(site.path, path)));
  return [...new Set(records.map((site) => componentName(site.ref)))];
}
