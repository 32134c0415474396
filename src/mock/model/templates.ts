/**
 * Record templates: the first 200 example of the operation each collection's records come from, in
 * the first bundle serving it in the contract's order (its default version), whatever the order the
 * bundles were passed in. Seeded records start as a copy of their template, so every field the
 * contract requires is there with a value of the right type.
 */
import { type Bundle, deref, type Json, responseMediaOf, versionRank } from '../../contract/index.ts';
import type { AnyRecord, Templates } from './types.ts';

/** The first example value of the 200 response of `operationId` in `bundle` (a deep copy). */
export function exampleOf(bundle: Bundle, operationId: string): Json {
  const operation = bundle.operations.find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`${operationId} is not in ${bundle.version}`);
  const media = responseMediaOf(bundle.document, operation);
  const first = media?.example ?? deref(bundle.document, Object.values<Json>(media?.examples ?? {})[0])?.value;
  if (first === undefined) throw new Error(`${operationId} (${bundle.version}) has no 200 example`);
  return structuredClone(first);
}

export function templatesOf(bundles: Bundle[]): Templates {
  const cache = new Map<string, AnyRecord>();
  const ordered = [...bundles].sort((a, b) => versionRank(a.version) - versionRank(b.version));
  const of = (operationId: string): Json => {
    let found = cache.get(operationId);
    if (!found) {
      const bundle = ordered.find((b) => b.operations.some((o) => o.operationId === operationId));
      found = bundle ? (exampleOf(bundle, operationId) as AnyRecord) : {};
      cache.set(operationId, found);
    }
    return structuredClone(found);
  };
  // `recordOf` is `of` (a list's: its first item) typed by the component its caller names (Templates).
  const recordOf = (operationId: string): Json => {
    const example = of(operationId);
    return Array.isArray(example?.results) ? (example.results[0] ?? {}) : example;
  };
  return { of, recordOf };
}
