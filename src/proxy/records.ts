/**
 * Where the records of the store's collections sit in each operation's answer, through the mock's
 * declared model (`describeModel()`): each collection names its key, the contract schema its
 * records satisfy (the one `--data` fixtures are checked against) and the operations whose answers
 * carry them. Inside such an answer, the records are wherever its schema holds that same component
 * (`results[]` of a list, the body of a read, `moved_fulfillment_order` of a move): the contract
 * says where, the model says what. A record of another version's shape (`SubscriptionV20230210`)
 * is another component, so it is not taken.
 */
import {
  type Bundle,
  type BundleOperation,
  combinedSchemasOf,
  deref,
  type Json,
  responseMediaOf,
} from '../contract/index.ts';
import { describeModel, type FixtureCollection } from '../mock/index.ts';

export type Collection = FixtureCollection;
/** A data path: property names and `[]` for every element of an array. */
type DataPath = string[];

export interface RecordSite {
  collection: Collection;
  path: DataPath;
}

/** The fixture check of a collection: the operation whose 200 answer holds its records, and how. */
export interface FixtureCheck {
  operation: BundleOperation;
  shape: 'item' | 'body' | 'element';
  /** The key field (`id`, orders `number`). */
  key: string;
}

const SHAPE_PATHS = { body: [], item: ['results', '[]'], element: ['[]'] } as const;
const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);
const componentName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** Every `$ref` reached by a schema, with the data path it describes (cycles cut). */
function refSites(
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
function successSchema(bundle: Bundle, operation: BundleOperation): Json {
  const responses = operation.operation.responses ?? {};
  const code = '200' in responses ? '200' : Object.keys(responses).find((c) => /^2/.test(c));
  return code === undefined ? undefined : responseMediaOf(bundle.document, operation, code)?.schema;
}

export interface RecordModel {
  /** Record sites of an operation in a version (empty when its answer holds no collection's records). */
  sitesOf(version: string, operationId: string): RecordSite[];
  /** How a collection's records are checked before they are recorded (as the mock checks `--data`). */
  fixtureCheck(collection: Collection): FixtureCheck | undefined;
}

export function recordModel(bundles: Bundle[]): RecordModel {
  const checks = new Map<Collection, FixtureCheck>();
  const sites = new Map<string, RecordSite[]>();
  for (const view of describeModel()) {
    if (!view.schema) continue; // an internal collection (locations)
    const collection = view.name as Collection;
    const { operationId, shape } = view.schema;
    // The first bundle serving the operation, as the mock's fixture check picks it.
    const bundle = bundles.find((b) => b.operations.some((o) => o.operationId === operationId));
    const operation = bundle?.operations.find((o) => o.operationId === operationId);
    if (!bundle || !operation) continue;
    checks.set(collection, { operation, shape, key: view.key });
    const record = refSites(bundle.document, successSchema(bundle, operation)).find((s) =>
      samePath(s.path, SHAPE_PATHS[shape]),
    );
    if (!record) continue;
    const component = componentName(record.ref);
    for (const servedBy of bundles.flatMap((b) =>
      b.operations.filter((o) => view.servedBy.includes(o.operationId)).map((o) => [b, o] as const),
    )) {
      const [servingBundle, served] = servedBy;
      const key = `${servingBundle.version} ${served.operationId}`;
      const found = refSites(servingBundle.document, successSchema(servingBundle, served))
        .filter((site) => componentName(site.ref) === component)
        .map((site) => ({ collection, path: site.path }));
      sites.set(key, [...(sites.get(key) ?? []), ...found]);
    }
  }
  return {
    sitesOf: (version, operationId) => sites.get(`${version} ${operationId}`) ?? [],
    fixtureCheck: (collection) => checks.get(collection),
  };
}

/** The objects found at a data path of a value (`[]` spreads an array). */
export function valuesAt(value: unknown, path: readonly string[]): Record<string, unknown>[] {
  if (path.length === 0)
    return value && typeof value === 'object' && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return valuesAt((value as Record<string, unknown>)[head as string], rest);
}
