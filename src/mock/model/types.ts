/**
 * The shape of the mock's declared model: each collection of the store is one {@link CollectionDecl}
 * (./<collection>.ts), data the rest of the mock derives from (seeding, `--data` fixtures, per-token
 * state, the operation table with its reads, list filters and writes, the state table, version
 * views, relations and their invariants).
 */
import type { Bundle } from '../../contract/index.ts';
import type { Refusal } from '../../http/index.ts';
import type { MockLimits } from '../limits.ts';
import type { Prng } from '../prng.ts';

// biome-ignore lint/suspicious/noExplicitAny: records are JSON walked generically.
export type Rec = Record<string, any>;
/** Records per collection, as the store and `--data` files hold them. */
export type StoreData = Record<string, Rec[]>;

/** Record templates (./templates.ts): a copy of an operation's first 200 example. */
export interface Templates {
  /** The first example of `operationId` in the first bundle serving it; `{}` when none does. */
  of(operationId: string): Rec;
}

/**
 * Which contract schema a collection's records satisfy: the 200 response of `operationId`, one of
 * the operations serving them (./index.ts refuses another).
 */
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
  /** The example records of a collection (./example-records.ts). */
  examples(collection: string): Rec[];
}

/**
 * How a record shows under one version, before the projection on that version's schema. A view
 * reading other records through `get` and `first` has its text cached until one of them changes
 * (../view-cache.ts); one calling `list` is made anew for every request.
 */
export interface ViewContext {
  /** Reads another collection of the caller's state. */
  list(collection: string): Rec[];
  get(collection: string, key: string | number): Rec | undefined;
  /** The first record of `collection` (in key order) whose `by(record)` is `value`; `by` one constant function. */
  first(collection: string, by: (record: Rec) => unknown, value: unknown): Rec | undefined;
  /** The version's bundle (views decide from its schemas, never from its name). */
  bundle: Bundle;
}

/** What an operation reads of a token's state (the engine's `State` has this and more). */
export interface StoreReader {
  list(collection: string): Rec[];
  get(collection: string, key: string | number): Rec | undefined;
  /** The next free key of a collection. */
  nextKey(collection: string): number;
}

export type FilterKind = 'any' | 'eq' | 'bool' | 'from' | 'to';

export interface FilterDecl {
  param: string;
  kind: FilterKind;
  /** The record's value(s) the filter compares with (an array: any element may match). */
  get: (record: Rec) => unknown;
}

/** A list of the collection's records, filtered, paged. */
export interface ListOperation {
  kind: 'list';
  filters: FilterDecl[];
  /** Filters of the contract the mock accepts but does not apply (their meaning is not shown). */
  notApplied: string[];
  /** Records of a parent (`/subscriptions/{id}/transactions/`): the parent must exist. */
  parent?: { collection: string; param: string; owns: (record: Rec, parentKey: string | number) => boolean };
}

/** A read by key (or, without `param`, a singleton: the whole collection is the body). */
export interface GetOperation {
  kind: 'get';
  /** Path parameter holding the key. */
  param?: string;
  /** Key → record, when not the collection's own record (order fulfillments by order number). */
  lookup?: (state: StoreReader, key: string | number) => Rec | undefined | { missing: string };
  /** The collection whose records the answer carries, when not this one (an order's fulfillment). */
  serves?: string;
}

export interface WriteContext {
  state: StoreReader;
  /** A private copy of the addressed record (absent for a create). */
  record: Rec;
  key: string | number;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are validated JSON.
  body: any;
  bodyProperties: string[];
  now: string;
  seed: string;
  limits: MockLimits;
}

export type WriteRefusal = { ok: false; refusal: Refusal };
export type WriteResult =
  | {
      ok: true;
      body: unknown;
      changes: [collection: string, record: Rec][];
      /** The body is a record of the collection (default), an object of such records, or as-is. */
      shape?: 'record' | 'values' | 'as-is';
    }
  | WriteRefusal;

/**
 * A row of the mock's state table (docs/mock.md "State table": the spec shows no transitions, so
 * this is the mock's behaviour): the states of the addressed record the write accepts.
 */
export interface StateRow {
  /** Where it applies: the "Accepts" cell of docs/mock.md's state table, word for word. */
  accepts: string;
  /** Its name in a record's `supported_actions`, when it has one. */
  action?: string;
  /** Why `record` cannot take this write now (the state found), or undefined when it can. */
  refuses(record: Rec): string | undefined;
}

/**
 * A write: a small function returning the records it changes and the response, so that the engine
 * can check the response against the contract before anything is stored (a refused request changes
 * nothing). With `param`, it addresses a record of the collection (a 404 when there is none).
 */
export interface WriteOperation {
  kind: 'write';
  param?: string;
  /**
   * The request's references to other records (a body naming a location), checked before the
   * addressed record's state: a request naming what does not exist is refused as such, whatever
   * the state of the record it addresses. A refusal, or undefined.
   */
  references?: (state: StoreReader, body: Rec) => WriteRefusal | undefined;
  /** Its row of the state table (a write without one accepts a record in any state). */
  state?: StateRow;
  run: (context: WriteContext) => WriteResult;
}

export type Operation = ListOperation | GetOperation | WriteOperation;

export interface CollectionDecl {
  /** Name as `--data` files and snapshots hold it. */
  name: string;
  /** Key field (`id`, orders `number`): unique, numeric (order numbers are numeric strings). */
  key: string;
  /** Singular noun for messages ("No subscription with id 9."). */
  singular: string;
  /** The contract schema its records satisfy (absent: an internal collection such as locations). */
  schema?: RecordSchema;
  /**
   * The operations over these records, by operationId (their routes, scopes and bodies are the
   * contract's): what the mock does for each. The operation table, the state table and each
   * collection's `servedBy` / `addressedBy` derive from them (./index.ts).
   */
  operations: Record<string, Operation>;
  /** Records of this collection nested in other responses (an order's `fulfillments`). */
  nestedIn?: { operationId: string; field: string }[];
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

/** A collection with what derives from the whole model's operations (./index.ts). */
export interface Collection extends CollectionDecl {
  /** Operations whose responses carry these records (for a proxy normalizing recorded traffic). */
  servedBy: string[];
  /** Operations whose path parameter is the key of one of these records (a 404 when it is none). */
  addressedBy: string[];
}
