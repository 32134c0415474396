/**
 * The version bundles (`generated/openapi/<version>.json`, Redocly's output: plain JSON with internal
 * `#/components/...` refs only) and the one walk over their operations. Every reader of a bundle
 * (mock, conformance, docs, type generation, bench, tests) goes through here.
 */
import { nodeBuiltins } from './node.ts';
import { type ApiVersion, VERSIONS } from './operations.generated.ts';
import { packageRoot } from './package.ts';

// biome-ignore lint/suspicious/noExplicitAny: bundles are untyped JSON walked generically.
export type Json = any;

/** `generated/openapi/` of this package (found from package.json, so it works from src/ and dist/). */
export const defaultBundlesDir = (): string => nodeBuiltins().path.join(packageRoot(), 'generated', 'openapi');

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface BundleOperation {
  version: ApiVersion;
  /** Lower-case HTTP method. */
  method: string;
  /** Path template as written in the bundle, e.g. `/tickets/{id}/`. */
  path: string;
  operationId: string;
  operation: Json;
  /** Path-level and operation-level parameters, `$ref`s resolved. */
  parameters: Json[];
}

export interface Bundle {
  version: ApiVersion;
  file: string;
  document: Json;
  operations: BundleOperation[];
}

/** Follows internal `$ref`s (`#/...`) until a non-ref node. */
export function deref(document: Json, node: Json): Json {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/') || hops > 32) throw new Error(`Cannot resolve $ref ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: Json, key) => at?.[key], document);
  }
  return current;
}

/**
 * The subschemas a schema's combinators add: its `allOf` parts, then its `anyOf` and `oneOf`
 * branches, in that order (the one way the schema walkers follow them; a walker that must tell a
 * part from a branch or where each is written, like the fuzzer's `allOf` merge or drift's walk,
 * reads them itself).
 */
export function combinedSchemasOf(node: Json): Json[] {
  return [...(node?.allOf ?? []), ...(node?.anyOf ?? []), ...(node?.oneOf ?? [])];
}

/** The JSON media object (`content['application/json']`: schema, example, examples) of a response or request body. */
export function jsonMediaOf(document: Json, node: Json): Json | undefined {
  return deref(document, node)?.content?.['application/json'];
}

/** The JSON media of `operation`'s response `status` (its 200 by default), `$ref`s followed. */
export function responseMediaOf(
  document: Json,
  operation: BundleOperation | undefined,
  status = '200',
): Json | undefined {
  return jsonMediaOf(document, operation?.operation.responses?.[status]);
}

/** The data of an `examples` keyword: a schema's list as is, or a map of Example objects' `value`s. */
export function exampleValues(document: Json, examples: Json): unknown[] {
  if (Array.isArray(examples)) return examples;
  if (!examples || typeof examples !== 'object') return [];
  return Object.values<Json>(examples)
    .map((example) => deref(document, example))
    .filter((example) => example && typeof example === 'object' && 'value' in example)
    .map((example) => example.value);
}

/** Every example value of a parameter, from the contract: its own (`example`, `examples`), then its schema's. */
export function parameterExamples(parameter: Json, document: Json): unknown[] {
  const schema = deref(document, parameter.schema) ?? {};
  const candidates = [
    parameter.example,
    ...exampleValues(document, parameter.examples),
    schema.example,
    ...exampleValues(document, schema.examples),
  ];
  return candidates.filter((c) => c !== undefined && c !== null);
}

/** An example value of a parameter, from the contract (its examples, else its schema's), as text. */
export function parameterExample(parameter: Json, document: Json): string {
  const [found] = parameterExamples(parameter, document);
  if (found !== undefined) return String(found);
  const type = [deref(document, parameter.schema)?.type].flat();
  return type.includes('integer') || type.includes('number') ? '1' : 'example';
}

export function operationsOf(version: ApiVersion, document: Json): BundleOperation[] {
  const out: BundleOperation[] = [];
  for (const [path, rawItem] of Object.entries<Json>(document.paths ?? {})) {
    const item = deref(document, rawItem);
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) =>
        deref(document, p),
      );
      out.push({
        version,
        method,
        path,
        operationId: operation.operationId ?? `${method} ${path}`,
        operation,
        parameters,
      });
    }
  }
  return out;
}

/** A bundle from its parsed document (a browser build imports the JSON instead of reading it). */
export const bundleOf = (version: ApiVersion, document: Json, file = `${version}.json`): Bundle => ({
  version,
  file,
  document,
  operations: operationsOf(version, document),
});

/**
 * The bundles read so far, by file, with the modification time and size they were read at: a
 * process that builds several engines, handlers or runners (a test worker, the proxy beside the
 * mock) parses each file once, and the validators compiled for a bundle (per bundle object) serve
 * them all: building an engine compiled its example checks again each time (~0.8 s of CPU). A file
 * rewritten since (a rebuild, `drift --propose --write`) is read again.
 */
const loaded = new Map<string, { mtimeMs: number; size: number; bundle: Bundle }>();

/** Freezes a parsed bundle document, so no reader can change what the others read. */
function deepFreeze(value: Json): Json {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Loads every version bundle present in `dir`, in {@link VERSIONS} order (newest first). Each
 * bundle is read once per file revision and shared, its document frozen (a reader that needs to
 * change one works on a `structuredClone`).
 */
export function loadBundles(dir: string = defaultBundlesDir()): Bundle[] {
  const { fs, path } = nodeBuiltins();
  const bundles: Bundle[] = [];
  for (const version of VERSIONS) {
    const file = path.join(dir, `${version}.json`);
    if (!fs.existsSync(file)) continue;
    const { mtimeMs, size } = fs.statSync(file);
    const known = loaded.get(file);
    if (known && known.mtimeMs === mtimeMs && known.size === size) {
      bundles.push(known.bundle);
      continue;
    }
    const bundle = bundleOf(version, deepFreeze(JSON.parse(fs.readFileSync(file, 'utf8'))), file);
    loaded.set(file, { mtimeMs, size, bundle });
    bundles.push(bundle);
  }
  if (bundles.length === 0) {
    throw new Error(`No version bundle found in ${dir} (expected ${VERSIONS.map((v) => `${v}.json`).join(', ')})`);
  }
  return bundles;
}

/** The named examples of a response media type (`examples` map), or `[]`. */
export function exampleNames(document: Json, response: Json): string[] {
  const resolved = deref(document, response);
  const content = resolved?.content ?? {};
  const names = new Set<string>();
  for (const media of Object.values<Json>(content)) {
    for (const name of Object.keys(media?.examples ?? {})) names.add(name);
  }
  return [...names];
}

export interface ExampleListing {
  version: ApiVersion;
  operationId: string;
  method: string;
  path: string;
  /** Example names by status code. */
  examples: Record<string, string[]>;
}

/** The example names a client can pick with `Prefer: example=<name>`, per operation and status. */
export function listExamples(bundles: Bundle[]): ExampleListing[] {
  return bundles.flatMap(({ version, document, operations }) =>
    operations.map(({ operationId, method, path, operation }) => ({
      version,
      operationId,
      method,
      path,
      examples: Object.fromEntries(
        Object.entries<Json>(operation.responses ?? {}).map(([code, response]) => [
          code,
          exampleNames(document, response),
        ]),
      ),
    })),
  );
}
