/**
 * The mock's store as one declared model: every collection once (./<collection>.ts), in seeding
 * order (a collection's seed may read the collections before it). Seeding, `--data` fixtures
 * (./fixtures.ts), the per-token state (../state.ts), reads by key, version views and invariants
 * (../invariants.ts) all derive from {@link MODEL}.
 */
import type { Bundle } from '../../contract/index.ts';
import { createPrng } from '../prng.ts';
import { person } from './catalogue.ts';
import { fulfillmentOrders } from './fulfillment-orders.ts';
import { fulfillments } from './fulfillments.ts';
import { giftCards } from './gift-cards.ts';
import { locations } from './locations.ts';
import { metadata } from './metadata.ts';
import { orders } from './orders.ts';
import { pages } from './pages.ts';
import { stockrecords } from './stockrecords.ts';
import { store } from './store.ts';
import { subscriptions } from './subscriptions.ts';
import { templatesOf } from './templates.ts';
import { tickets } from './tickets.ts';
import { transactions } from './transactions.ts';
import type { CollectionDecl, Rec, SeedContext, StoreData } from './types.ts';

export type { CollectionDecl, Rec, RecordSchema, RelationDecl, StoreData, ViewContext } from './types.ts';

/** Every collection of the store, in seeding order. */
export const MODEL: readonly CollectionDecl[] = [
  locations,
  orders,
  fulfillments,
  stockrecords,
  subscriptions,
  transactions,
  fulfillmentOrders,
  tickets,
  giftCards,
  metadata,
  pages,
  store,
];

const BY_NAME = new Map(MODEL.map((c) => [c.name, c]));

/** The declaration of a collection (throws for a name the model does not have). */
export function collectionOf(name: string): CollectionDecl {
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`the mock's model has no collection "${name}"`);
  return found;
}

export const keyField = (collection: string): string => BY_NAME.get(collection)?.key ?? 'id';
/** Numeric sort key of a record (order numbers are numeric strings). */
export const sortKey = (collection: string, record: Rec): number => Number(record[keyField(collection)]);

/** The generated store: same seed, same bundles → byte-identical data. */
export function seedStore(bundles: Bundle[], options: { seed: string }): StoreData {
  const prng = createPrng(options.seed);
  const templates = templatesOf(bundles);
  const data: StoreData = {};
  const context: SeedContext = { prng, templates, store: data, users: [], bundles };
  data.locations = seedCollection(locations, context);
  const userTemplate = templates.of('listSubscriptions').results?.[0]?.user ?? {};
  context.users = Array.from({ length: 30 }, (_, i) => person(prng, userTemplate, i + 1));
  for (const collection of MODEL) {
    if (collection !== locations) data[collection.name] = seedCollection(collection, context);
  }
  return data;
}

function seedCollection(collection: CollectionDecl, context: SeedContext): Rec[] {
  return Array.from({ length: collection.seed.count }, (_, i) => collection.seed.record(i + 1, context));
}
