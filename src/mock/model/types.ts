/**
 * The shape of the mock's declared model: each collection of the store is one {@link CollectionDecl}
 * (./<collection>.ts), data the rest of the mock derives from (seeding, `--data` fixtures, per-token
 * state, the operation table with its reads, list filters and writes, the state table, version
 * views, relations and their invariants).
 */
import type { DefaultSchemas } from '../../../generated/types/index.ts';
import type { Bundle } from '../../contract/index.ts';
import type { Refusal } from '../../http/index.ts';
import type { MockLimits } from '../limits.ts';
import type { Prng } from '../prng.ts';
import type { CollectionName, StoreRecords } from './records.ts';

/**
 * A record of any collection, its fields read as JSON: the type of code generic over collections
 * (seeding, the per-token state, fixtures, relations). Code that knows its collection reads the
 * collection's own record type (./records.ts), through {@link RecordReader}.
 */
// biome-ignore lint/suspicious/noExplicitAny: records are JSON walked generically.
export type AnyRecord = Record<string, any>;
/**
 * The former name of {@link AnyRecord}, kept for ../view-cache.ts and ../stages/context.ts only (changed
 * on another branch at the same time; renamed there after the merge).
 * @deprecated use AnyRecord, or the collection's record type.
 */
export type Rec = AnyRecord;

/**
 * Reads records by collection: a collection the model declares gives its own record type
 * (./records.ts), a name only known at run time (generic code: `state.list(collection.name)`) gives
 * {@link AnyRecord}.
 */
export interface RecordReader {
  list<C extends CollectionName>(collection: C): readonly StoreRecords[C][];
  list(collection: string): readonly AnyRecord[];
  get<C extends CollectionName>(collection: C, key: string | number): StoreRecords[C] | undefined;
  get(collection: string, key: string | number): AnyRecord | undefined;
}

/*
 * The declarations below are generic in `R`, the record of their collection (a collection file
 * declares `CollectionDecl<StoredTicket>`; the store-wide code holds every one as a
 * `CollectionDecl`, records keyed by collection name). Their callbacks are written as methods, so a
 * `CollectionDecl<StoredTicket>` is a `CollectionDecl`: the store calls each with records of its own
 * collection only.
 */
/** Records per collection, as the store and `--data` files hold them. */
export type StoreData = Record<string, AnyRecord[]>;

/** Record templates (./templates.ts): a copy of an operation's first 200 example. */
export interface Templates {
  /** The first example of `operationId` in the first bundle serving it; `{}` when none does. */
  of(operationId: string): AnyRecord;
  /**
   * The same (a list's: the first of its `results`), typed as a record of schema `component` for an
   * operation answering with one: the contract's examples satisfy their schemas
   * (test/contract/examples.test.ts checks each). A set of bundles not serving `operationId` gives
   * `{}` (the seed's own fields are then all a record has).
   */
  recordOf<K extends keyof DefaultSchemas>(operationId: string, component: K): DefaultSchemas[K];
}

/**
 * The contract schema a collection's records satisfy: schema component `component`
 * (`#/components/schemas/<component>`) of the newest bundle defining it. It must be the record of
 * (the body, an item of `results` or an element of) an answer of an operation serving them
 * (./schemas.ts checks it).
 */
export interface RecordSchema {
  component: string;
}

/**
 * A reference from a record of this collection to records of `to` (by their key): `keys` reads the
 * keys a record names. Made whole both ways when the store is seeded (./links.ts), read for a free
 * key (./index.ts), and checked in both directions by the invariants (../invariants.ts).
 */
export interface RelationDecl<R extends object = AnyRecord> {
  /** Name of the relation, e.g. `order` (a transaction's order). */
  name: string;
  to: string;
  keys(record: R): (string | number)[];
}

/** What a seed function gets: the store seeded so far (collections are seeded in model order). */
export interface SeedContext {
  prng: Prng;
  templates: Templates;
  store: StoreData;
  /** The customers records name (30, drawn once per seed). */
  users: DefaultSchemas['User'][];
  bundles: Bundle[];
}

/** What `atExampleKey` gets: the store so far (generated and example records), the templates. */
export interface ExampleContext {
  store: StoreData;
  templates: Templates;
  /** An existing record of a collection, or undefined. */
  get: RecordReader['get'];
  /** A free key of a collection (above every key it holds). */
  freeKey(collection: string): number;
  /** The example request bodies of an operation. */
  requests(operationId: string): AnyRecord[];
  /** The example records of a collection (./example-records.ts). */
  examples(collection: string): AnyRecord[];
}

/**
 * How a record shows under one version, before the projection on that version's schema. A view
 * reading other records through `get` and `first` has its text cached until one of them changes
 * (../view-cache.ts); one calling `list` is made anew for every request.
 */
export interface ViewContext {
  /** Reads another collection of the caller's state. */
  list(collection: string): AnyRecord[];
  get(collection: string, key: string | number): AnyRecord | undefined;
  /** The first record of `collection` (in key order) whose `by(record)` is `value`; `by` one constant function. */
  first(collection: string, by: (record: AnyRecord) => unknown, value: unknown): AnyRecord | undefined;
  /** The version's bundle (views decide from its schemas, never from its name). */
  bundle: Bundle;
}

/** What an operation reads of a token's state (the engine's `State` has this and more). */
export interface StoreReader extends RecordReader {
  /** The next free key of a collection. */
  nextKey(collection: string): number;
}

export type FilterKind = 'any' | 'eq' | 'bool' | 'from' | 'to';

export interface FilterDecl<R extends object = AnyRecord> {
  param: string;
  kind: FilterKind;
  /** The record's value(s) the filter compares with (an array: any element may match). */
  get(record: R): unknown;
}

/** A list of the collection's records, filtered, paged. */
export interface ListOperation<R extends object = AnyRecord> {
  kind: 'list';
  filters: FilterDecl<R>[];
  /** Filters of the contract the mock accepts but does not apply (their meaning is not shown). */
  notApplied: string[];
  /** Records of a parent (`/subscriptions/{id}/transactions/`): the parent must exist. */
  parent?: { collection: string; param: string; owns(record: R, parentKey: string | number): boolean };
}

/** A read by key (or, without `param`, a singleton: the whole collection is the body). */
export interface GetOperation {
  kind: 'get';
  /** Path parameter holding the key. */
  param?: string;
  /** Key → record, when not the collection's own record (order fulfillments by order number). */
  lookup?: (state: StoreReader, key: string | number) => AnyRecord | undefined | { missing: string };
  /** The collection whose records the answer carries, when not this one (an order's fulfillment). */
  serves?: string;
}

export interface WriteContext<R extends object = AnyRecord> {
  state: StoreReader;
  /** A private copy of the addressed record (a create, which reads none, gets an empty object). */
  record: R;
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
      changes: [collection: string, record: AnyRecord][];
      /** The body is a record of the collection (default), an object of such records, or as-is. */
      shape?: 'record' | 'values' | 'as-is';
    }
  | WriteRefusal;

/**
 * A row of the mock's state table (docs/mock.md "State table": the spec shows no transitions, so
 * this is the mock's behaviour): the states of the addressed record the write accepts.
 */
export interface StateRow<R extends object = AnyRecord> {
  /** Where it applies: the "Accepts" cell of docs/mock.md's state table, word for word. */
  accepts: string;
  /** Its name in a record's `supported_actions`, when it has one. */
  action?: string;
  /** Why `record` cannot take this write now (the state found), or undefined when it can. */
  refuses(record: R): string | undefined;
}

/**
 * A write: a small function returning the records it changes and the response, so that the engine
 * can check the response against the contract before anything is stored (a refused request changes
 * nothing). With `param`, it addresses a record of the collection (a 404 when there is none).
 */
export interface WriteOperation<R extends object = AnyRecord> {
  kind: 'write';
  param?: string;
  /**
   * The request's references to other records (a body naming a location), checked before the
   * addressed record's state: a request naming what does not exist is refused as such, whatever
   * the state of the record it addresses. A refusal, or undefined.
   */
  references?: (state: StoreReader, body: AnyRecord) => WriteRefusal | undefined;
  /** Its row of the state table (a write without one accepts a record in any state). */
  state?: StateRow<R>;
  run(context: WriteContext<R>): WriteResult;
}

export type Operation<R extends object = AnyRecord> = ListOperation<R> | GetOperation | WriteOperation<R>;

export interface CollectionDecl<R extends object = AnyRecord> {
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
  operations: Record<string, Operation<R>>;
  /** Records of this collection nested in other responses (an order's `fulfillments`). */
  nestedIn?: { operationId: string; field: string }[];
  /**
   * The record at a key a path parameter example names (`1042`), in a state the operations' example
   * requests are accepted in, with the records it needs (orders of a new subscription...).
   */
  atExampleKey?: (key: string, context: ExampleContext) => [collection: string, record: AnyRecord][];
  relations: RelationDecl<R>[];
  /** Records seeded: the generated ones (keys 1..count) and how one is made. */
  seed: { count: number; record(index: number, context: SeedContext): R };
  /** The version view (default: the record as stored). */
  view?(record: R, context: ViewContext): AnyRecord;
}

/**
 * The declaration of collection `N`, its records of the type ./records.ts names for it (what a
 * collection file declares: `export const orders: DeclaredCollection<'orders'>`).
 */
export type DeclaredCollection<N extends CollectionName> = CollectionDecl<StoreRecords[N]> & { name: N };

/** A collection with what derives from the whole model's operations (./index.ts). */
export interface Collection extends CollectionDecl {
  /**
   * The whole collection is one answer (its read has no path parameter: `GET /store/`): its records
   * are not addressed by key, so neither checked for one nor taken from the examples by key.
   */
  singleton: boolean;
  /** Operations whose responses carry these records (for a proxy normalizing recorded traffic). */
  servedBy: string[];
  /** Operations whose path parameter is the key of one of these records (a 404 when it is none). */
  addressedBy: string[];
}
