/**
 * Loads the committed version bundles and walks them, for the suites that check the contract.
 * The bundles are plain JSON with internal `#/components/...` refs (Redocly's output).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ApiVersion, VERSIONS } from '../../scripts/lib/versions.ts';

// biome-ignore lint/suspicious/noExplicitAny: bundles are untyped JSON walked generically.
export type Json = any;

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export { type ApiVersion, VERSIONS };

const cache = new Map<ApiVersion, Json>();
export function loadBundle(version: ApiVersion): Json {
  let bundle = cache.get(version);
  if (!bundle) {
    bundle = JSON.parse(readFileSync(`${ROOT}generated/openapi/${version}.json`, 'utf8'));
    cache.set(version, bundle);
  }
  return bundle;
}

/** Follows one internal `$ref` (the bundles hold no external ones). */
export function deref(bundle: Json, node: Json): Json {
  let current = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: Json, key) => at?.[key], bundle);
  }
  return current;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface BundleOperation {
  version: ApiVersion;
  method: string;
  path: string;
  operation: Json;
  /** Path-level and operation-level parameters, resolved. */
  parameters: Json[];
}

export function operationsOf(version: ApiVersion): BundleOperation[] {
  const bundle = loadBundle(version);
  const out: BundleOperation[] = [];
  for (const [path, rawItem] of Object.entries<Json>(bundle.paths ?? {})) {
    const item = deref(bundle, rawItem);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) =>
        deref(bundle, p),
      );
      out.push({ version, method, path, operation, parameters });
    }
  }
  return out;
}

export const allOperations = (): BundleOperation[] => VERSIONS.flatMap(operationsOf);
