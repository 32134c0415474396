/**
 * Where the records of the store's collections sit in each operation's answer, through the mock's
 * declared model (`describeModel()`): each collection names its key, the schema component its
 * records satisfy (the one `--data` fixtures are checked against, read from the newest bundle
 * defining it) and the operations whose answers carry them. Inside such an answer, the records are
 * wherever its schema holds that same component (`results[]` of a list, the body of a read,
 * `moved_fulfillment_order` of a move): the contract says where, the model says what. A record of another version's shape (`SubscriptionV20230210`)
 * is another component, so it is not taken.
 */
import {
  type Bundle,
  bundleDefining,
  componentName,
  type DataPath,
  refSites,
  successSchemaOf,
} from '../contract/index.ts';
import { describeModel, type FixtureCollection } from '../mock/index.ts';
import { checkComponent, type Violation } from '../validation/index.ts';

export type Collection = FixtureCollection;

export interface RecordSite {
  collection: Collection;
  path: DataPath;
}

export interface RecordModel {
  /** Record sites of an operation in a version (empty when its answer holds no collection's records). */
  sitesOf(version: string, operationId: string): RecordSite[];
  /** The key field of a collection (`id`, orders `number`). */
  keyOf(collection: Collection): string;
  /**
   * Why a record cannot be recorded: its violations of the collection's component, as the mock checks
   * `--data` (empty: it may be); undefined when no bundle defines the component.
   */
  check(collection: Collection, record: unknown): Violation[] | undefined;
}

export function recordModel(bundles: Bundle[]): RecordModel {
  const keys = new Map<Collection, string>();
  const sites = new Map<string, RecordSite[]>();
  const views = describeModel();
  for (const view of views) {
    if (!view.schema) continue; // an internal collection (locations)
    const collection = view.name as Collection;
    const { component } = view.schema;
    keys.set(collection, view.key);
    for (const bundle of bundles) {
      for (const served of bundle.operations.filter((o) => view.servedBy.includes(o.operationId))) {
        const key = `${bundle.version} ${served.operationId}`;
        const found = refSites(bundle.document, successSchemaOf(bundle.document, served))
          .filter((site) => componentName(site.ref) === component)
          .map((site) => ({ collection, path: site.path }));
        sites.set(key, [...(sites.get(key) ?? []), ...found]);
      }
    }
  }
  // Each collection's component and the bundle it is read from (the newest defining it), found once.
  const schemas = new Map(
    views.flatMap(({ name, schema }) => {
      const bundle = schema && bundleDefining(bundles, schema.component);
      return schema && bundle ? [[name, { component: schema.component, bundle }] as const] : [];
    }),
  );
  return {
    sitesOf: (version, operationId) => sites.get(`${version} ${operationId}`) ?? [],
    keyOf: (collection) => keys.get(collection) ?? 'id',
    check(collection, record) {
      const schema = schemas.get(collection);
      return schema && checkComponent(schema.bundle, schema.component, record);
    },
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
