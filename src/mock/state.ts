/**
 * The mock's mutable state: the store's collections (./seed.ts) with an index per collection by
 * key. One seeded state is shared read-only; a token's state starts as a copy sharing every
 * collection with it, and a collection is copied (its array and index, not its records) the first
 * time that state writes to it. Records are never changed in place: a write puts new objects (the
 * engine hands actions a deep copy of the record they change), so sharing them is safe.
 */
import type { Rec, StoreData } from './seed.ts';

/** Key field of each collection (orders are addressed by number, the rest by id). */
export const KEYS: Record<string, string> = { orders: 'number', fulfillments: 'id' };
export const keyField = (collection: string) => KEYS[collection] ?? 'id';
/** Numeric sort key of a record (order numbers are numeric strings). */
export const sortKey = (collection: string, record: Rec): number => Number(record[keyField(collection)]);

export class State {
  readonly data: StoreData;
  private readonly indexes: Map<string, Map<string, Rec>>;
  /** Collections this state may change (the others are shared with the state it was copied from). */
  private readonly owned = new Set<string>();
  constructor(data: StoreData, shared?: { indexes: Map<string, Map<string, Rec>> }) {
    this.data = data;
    if (shared) {
      this.indexes = new Map(shared.indexes);
      return;
    }
    this.indexes = new Map();
    for (const [collection, records] of Object.entries(data)) {
      records.sort((a, b) => sortKey(collection, a) - sortKey(collection, b));
      const field = keyField(collection);
      this.indexes.set(collection, new Map(records.map((r) => [String(r[field]), r])));
      this.owned.add(collection);
    }
  }
  list(collection: string): Rec[] {
    return this.data[collection] ?? [];
  }
  get(collection: string, key: string | number): Rec | undefined {
    return this.indexes.get(collection)?.get(String(key));
  }
  /** The next free key of a collection (max + 1). */
  nextKey(collection: string): number {
    const records = this.list(collection);
    const last = records[records.length - 1];
    return last ? sortKey(collection, last) + 1 : 1;
  }
  /** Adds or replaces a record (kept in key order). */
  put(collection: string, record: Rec): void {
    const field = keyField(collection);
    const key = String(record[field]);
    if (!this.owned.has(collection)) {
      this.data[collection] = [...(this.data[collection] ?? [])];
      this.indexes.set(collection, new Map(this.indexes.get(collection)));
      this.owned.add(collection);
    }
    const index = this.indexes.get(collection) as Map<string, Rec>;
    const records = this.data[collection] as Rec[];
    const existing = index.get(key);
    if (existing) {
      records[records.indexOf(existing)] = record;
    } else {
      const position = records.findIndex((r) => sortKey(collection, r) > Number(key));
      if (position === -1) records.push(record);
      else records.splice(position, 0, record);
    }
    index.set(key, record);
  }
  /**
   * A copy for a snapshot: both this state and the copy share every collection and copy one before
   * changing it (a clone alone would still change this state's collections in place).
   */
  fork(): State {
    this.owned.clear();
    return this.clone();
  }
  /** A state sharing this one's collections until it writes to them. */
  clone(): State {
    return new State({ ...this.data }, { indexes: this.indexes });
  }
}
