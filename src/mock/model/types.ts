/**
 * The shape of the mock's declared model: each collection of the store is one {@link CollectionDecl}
 * (./<collection>.ts), data the rest of the mock derives from (seeding, `--data` fixtures, per-token
 * state, reads by key, list filters, version views, relations and their invariants).
 */
import type { Bundle } from '../../contract/index.ts';
import type { Prng } from '../prng.ts';
import type { Templates } from './templates.ts';

// biome-ignore lint/suspicious/noExplicitAny: records are JSON walked generically.
export type Rec = Record<string, any>;
/** Records per collection, as the store and `--data` files hold them. */
export type StoreData = Record<string, Rec[]>;

/** Which contract schema a collection's records satisfy: the 200 response of `operationId`. */
export interface RecordSchema {
  operationId: string;
  /** The record is the response body, an item of its `results`, or an element of the body array. */
  shape: 'body' | 'item' | 'element';
}

/**
 * A reference from a record of this collection to records of `to` (by their key): `keys` reads the
 * keys a record names. Made whole both ways when the store is seeded (./links.ts), read for a free
 * key (./index.ts), and checked in both directions by the invariants (../invariants.ts).
 */
export interface RelationDecl {
  /** Name of the relation, e.g. `order` (a transaction's order). */
  name: string;
  to: string;
  keys: (record: Rec) => (string | number)[];
}

/** What a seed function gets: the store seeded so far (collections are seeded in model order). */
export interface SeedContext {
  prng: Prng;
  templates: Templates;
  store: StoreData;
  /** The customers records name (30, drawn once per seed). */
  users: Rec[];
  bundles: Bundle[];
}

/** What `atExampleKey` gets: the store so far (generated and example records), the templates. */
export interface ExampleContext {
  store: StoreData;
  templates: Templates;
  /** An existing record of a collection, or undefined. */
  get(collection: string, key: string | number): Rec | undefined;
  /** A free key of a collection (above every key it holds). */
  freeKey(collection: string): number;
  /** The example request bodies of an operation. */
  requests(operationId: string): Rec[];
  /** The example records of a collection (./examples.ts). */
  examples(collection: string): Rec[];
}

/** How a record shows under one version, before the projection on that version's schema. */
export interface ViewContext {
  /** Reads another collection of the caller's state. */
  list(collection: string): Rec[];
  get(collection: string, key: string | number): Rec | undefined;
  /** The version's bundle (views decide from its schemas, never from its name). */
  bundle: Bundle;
}

export interface CollectionDecl {
  /** Name as `--data` files and snapshots hold it. */
  name: string;
  /** Key field (`id`, orders `number`): unique, numeric (order numbers are numeric strings). */
  key: string;
  /** Singular noun for messages ("No subscription with id 9."). */
  singular: string;
  /** The contract schema its records satisfy (absent: an internal collection such as locations). */
  schema?: RecordSchema;
  /** Operations whose responses carry these records (for a proxy normalizing recorded traffic). */
  servedBy: string[];
  /** Records of this collection nested in other responses (an order's `fulfillments`). */
  nestedIn?: { operationId: string; field: string }[];
  /** Operations whose path parameter is the key of one of these records (a 404 when it is none). */
  addressedBy?: string[];
  /**
   * The record at a key a path parameter example names (`1042`), in a state the operations' example
   * requests are accepted in, with the records it needs (orders of a new subscription...).
   */
  atExampleKey?: (key: string, context: ExampleContext) => [collection: string, record: Rec][];
  relations: RelationDecl[];
  /** Records seeded: the generated ones (keys 1..count) and how one is made. */
  seed: { count: number; record: (index: number, context: SeedContext) => Rec };
  /** The version view (default: the record as stored). */
  view?: (record: Rec, context: ViewContext) => Rec;
}
