/**
 * The mock's mutable state: the store's collections (./seed.ts) with an index per collection by
 * key. One seeded state is shared read-only; a bearer token's first write copies it (copy-on-write)
 * unless the mock runs with one shared state.
 */
import type { Rec, StoreData } from './seed.ts';

/** Key field of each collection (orders are addressed by number, the rest by id). */
export const KEYS: Record<string, string> = { orders: 'number', fulfillments: 'id' };
export const keyField = (collection: string) => KEYS[collection] ?? 'id';
/** Numeric sort key of a record (order numbers are numeric strings). */
export const sortKey = (collection: string, record: Rec): number => Number(record[keyField(collection)]);

export class State {
  readonly data: StoreData;
  private readonly indexes = new Map<string, Map<string, Rec>>();
  constructor(data: StoreData) {
    this.data = data;
    for (const [collection, records] of Object.entries(data)) {
      records.sort((a, b) => sortKey(collection, a) - sortKey(collection, b));
      const field = keyField(collection);
      this.indexes.set(collection, new Map(records.map((r) => [String(r[field]), r])));
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
    const index = this.indexes.get(collection) ?? new Map<string, Rec>();
    this.indexes.set(collection, index);
    if (!this.data[collection]) this.data[collection] = [];
    const records = this.data[collection];
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
  clone(): State {
    return new State(structuredClone(this.data));
  }
}
