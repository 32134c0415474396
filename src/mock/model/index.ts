/**
 * The mock's store as one declared model: every collection once (./<collection>.ts), in seeding
 * order (a collection's seed may read the collections before it). Seeding, `--data` fixtures
 * (./fixtures.ts), the per-token state (../collection-state.ts), the operation table (../resources.ts), the
 * state table (../transitions.ts), version views and invariants (../invariants.ts) all derive from
 * {@link MODEL}.
 */
import { type Bundle, COMPONENTS } from '../../contract/index.ts';
import { createPrng } from '../prng.ts';
import { person } from './catalogue.ts';
import { exampleKeys, exampleRecords, exampleRequests, putRecord } from './example-records.ts';
import { fulfillmentOrders, supportedActions } from './fulfillment-orders.ts';
import { fulfillments } from './fulfillments.ts';
import { giftCards } from './gift-cards.ts';
import { link } from './links.ts';
import { locations } from './locations.ts';
import { metadata } from './metadata.ts';
import { orders } from './orders.ts';
import { pages } from './pages.ts';
import type { CollectionName, StoredFulfillmentOrder } from './records.ts';
import { recordSchemaProblem } from './schemas.ts';
import { stockrecords } from './stockrecords.ts';
import { store } from './store.ts';
import { subscriptions } from './subscriptions.ts';
import { templatesOf } from './templates.ts';
import { tickets } from './tickets.ts';
import { transactions } from './transactions.ts';
import type {
  AnyRecord,
  Collection,
  CollectionDecl,
  ExampleContext,
  SeedContext,
  StoreData,
  Templates,
} from './types.ts';

export type * from './records.ts';
export type * from './types.ts';

/** Every collection of the store as declared, in seeding order. */
const DECLARED = [
  locations,
  subscriptions,
  orders,
  fulfillments,
  stockrecords,
  transactions,
  fulfillmentOrders,
  tickets,
  giftCards,
  metadata,
  pages,
  store,
] as const satisfies readonly CollectionDecl[];

/**
 * `true` only when the model declares every collection ./records.ts names (each declaration is a
 * `DeclaredCollection` of its own name, so it declares none other): a collection added to one and
 * not the other does not compile.
 */
export const DECLARES_EVERY_COLLECTION: [Exclude<CollectionName, (typeof DECLARED)[number]['name']>] extends [never]
  ? true
  : never = true;

/**
 * The collections with the operations serving their records (their own, but for a read declaring
 * that it serves another's) and addressing them by key (their own with a path parameter, and the
 * lists of their children: `/subscriptions/{id}/transactions/`). Refuses an operation declared by
 * two collections, and a schema link to a component the contract does not define (whether it is a
 * record of an answer serving the collection needs the bundles: ./schemas.ts, when seeding).
 */
export function withOperations(declared: readonly CollectionDecl[]): Collection[] {
  const owners = new Map<string, string>();
  for (const owner of declared) {
    for (const operationId of Object.keys(owner.operations)) {
      const other = owners.get(operationId);
      if (other) throw new Error(`${operationId} is declared by both ${other} and ${owner.name} (src/mock/model/)`);
      owners.set(operationId, owner.name);
    }
  }
  return declared.map((collection) => {
    const servedBy: string[] = [];
    const addressedBy: string[] = [];
    for (const owner of declared) {
      for (const [operationId, operation] of Object.entries(owner.operations)) {
        const serves = operation.kind === 'get' && operation.serves ? operation.serves : owner.name;
        if (serves === collection.name) servedBy.push(operationId);
        const addresses = operation.kind === 'list' ? operation.parent?.collection : operation.param && owner.name;
        if (addresses === collection.name) addressedBy.push(operationId);
      }
    }
    const component = collection.schema?.component;
    if (component !== undefined && !Object.hasOwn(COMPONENTS, component))
      throw new Error(`the schema of ${collection.name} is ${component}, which no bundle of the contract defines`);
    // A read without a path parameter answers with the whole collection (`GET /store/`).
    const singleton = Object.values(collection.operations).some((o) => o.kind === 'get' && o.param === undefined);
    return { ...collection, servedBy, addressedBy, singleton };
  });
}

/** Every collection of the store, in seeding order, with the operations serving and addressing it. */
export const MODEL: readonly Collection[] = withOperations(DECLARED);

const BY_NAME = new Map(MODEL.map((c) => [c.name, c]));

/** The declaration of a collection (throws for a name the model does not have). */
export function collectionOf(name: string): Collection {
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`the mock's model has no collection "${name}"`);
  return found;
}

export const keyField = (collection: string): string => BY_NAME.get(collection)?.key ?? 'id';
/**
 * Numeric sort key of a record: its id, or its order number when digits (the seeded ones, "1001");
 * a number that is not (a recorded store's "A-1001") sorts after them all, as Infinity.
 */
export const sortKey = (collection: string, record: AnyRecord): number => sortKeyOf(record[keyField(collection)]);
/** The sort key of a key's value (a caller that knows the key field reads it once). */
export const sortKeyOf = (key: unknown): number =>
  typeof key === 'number' ? key : /^\d{1,15}$/.test(key as string) ? Number(key) : Number.POSITIVE_INFINITY;

/** Stores seeded so far, by their first bundle: the bundles they were seeded from, the seed, the data. */
const seeded = new WeakMap<Bundle, { bundles: Bundle[]; seed: string; data: StoreData }[]>();

/**
 * The generated store: same seed, same bundles → byte-identical data. Seeded once per (bundles,
 * seed) in a process and shared: records are never changed in place (../collection-state.ts), so
 * every engine of a process (a test worker's, the MSW handlers beside a server) reads the same
 * records; each caller gets its own object of collections, which `--data` fixtures may replace.
 */
export function seedStore(bundles: Bundle[], options: { seed: string }): StoreData {
  const first = bundles[0];
  const known = first ? (seeded.get(first) ?? []) : [];
  const same = known.find((s) => s.seed === options.seed && sameBundles(s.bundles, bundles));
  if (same) return { ...same.data };
  const data = generate(bundles, options.seed);
  if (first) seeded.set(first, [...known, { bundles: [...bundles], seed: options.seed, data }]);
  return { ...data };
}

/**
 * The generated store as a caller of the package gets it (`generateStore`): a deep copy, the
 * caller's to change; the engines share {@link seedStore}'s records, which nothing changes.
 */
export const generateStore = (bundles: Bundle[], options: { seed: string }): StoreData =>
  structuredClone(seedStore(bundles, options));

const sameBundles = (a: Bundle[], b: Bundle[]) => a.length === b.length && a.every((bundle, i) => bundle === b[i]);

function generate(bundles: Bundle[], seed: string): StoreData {
  const options = { seed };
  for (const collection of MODEL) {
    const problem = recordSchemaProblem(collection, bundles);
    if (problem) throw new Error(problem);
  }
  const prng = createPrng(options.seed);
  const templates = templatesOf(bundles);
  const data: StoreData = {};
  const context: SeedContext = { prng, templates, store: data, users: [], bundles };
  data.locations = seedCollection(locations, context);
  const userTemplate = templates.of('listSubscriptions').results?.[0]?.user ?? {};
  context.users = Array.from({ length: 30 }, (_, i) => person(prng, userTemplate, i + 1));
  for (const collection of MODEL) {
    if (collection.name !== locations.name) data[collection.name] = seedCollection(collection, context);
  }
  addExamples(bundles, data, templates);
  link(data, templates);
  for (const record of (data.fulfillmentOrders ?? []) as StoredFulfillmentOrder[])
    record.supported_actions = supportedActions(record);
  for (const collection of MODEL)
    data[collection.name]?.sort((a, b) => sortKey(collection.name, a) - sortKey(collection.name, b));
  return data;
}

/** A key above every key of `name` held or named by a relation (so a new record collides with none). */
function freeKey(data: StoreData, name: string): number {
  let max = 0;
  for (const record of data[name] ?? []) max = Math.max(max, sortKey(name, record));
  for (const collection of MODEL) {
    for (const relation of collection.relations) {
      if (relation.to !== name) continue;
      for (const record of data[collection.name] ?? []) {
        for (const key of relation.keys(record)) if (Number.isFinite(Number(key))) max = Math.max(max, Number(key));
      }
    }
  }
  return max + 1;
}

/** The contract's example records, and a record at every key a path parameter example names. */
function addExamples(bundles: Bundle[], data: StoreData, templates: Templates): void {
  const examples = new Map(MODEL.map((c) => [c.name, exampleRecords(bundles, c)]));
  for (const collection of MODEL)
    for (const record of examples.get(collection.name) ?? []) putRecord(data, collection, record);
  const get = (name: string, key: string | number) =>
    data[name]?.find((r) => String(r[keyField(name)]) === String(key));
  const context: ExampleContext = {
    store: data,
    templates,
    get,
    freeKey: (name) => freeKey(data, name),
    requests: (operationId) => exampleRequests(bundles, operationId),
    examples: (name) => examples.get(name) ?? [],
  };
  for (const collection of MODEL) {
    for (const key of exampleKeys(bundles, collection)) {
      if (get(collection.name, key) || !collection.atExampleKey) continue;
      for (const [name, record] of collection.atExampleKey(key, context)) putRecord(data, collectionOf(name), record);
    }
  }
}

/** Seeds one collection; its seed function sees the records seeded before it (its own too). */
function seedCollection(collection: CollectionDecl, context: SeedContext): AnyRecord[] {
  const records: AnyRecord[] = [];
  context.store[collection.name] = records;
  for (let i = 1; i <= collection.seed.count; i++) records.push(collection.seed.record(i, context));
  return records;
}
