/**
 * The mock's mutable state: the store's collections (./model) each with an index by key (key →
 * position), records kept in key order. Reads by key are O(1); an insert with a new highest key (the
 * next key, max + 1: every create) is an append, O(1); any other insert is a binary search plus a
 * splice. One seeded state is shared read-only; a token's state starts as a copy sharing every
 * collection with it, and a collection is copied (its array and index, not its records) the first
 * time that state writes to it. Records are never changed in place: a write puts new objects, so
 * sharing them is safe. The state also counts what its token wrote (records created per collection,
 * bytes of the records it holds of its own) for the limits (./limits.ts).
 */
import { type AnyRecord, keyField, type RecordReader, type StoreData, sortKey, sortKeyOf } from './model/index.ts';
import { search } from './pagination.ts';

interface Indexed {
  records: AnyRecord[];
  /** Key → position in `records`. */
  positions: Map<string, number>;
  /**
   * Field indexes {@link State.first} made (field reader → value → first record in key order),
   * dropped when the collection changes: an Indexed is changed only by the state owning it.
   */
  lookups?: Map<(record: AnyRecord) => unknown, Map<unknown, AnyRecord>>;
}

/**
 * JSON size of a record. The last record measured is remembered: a write's limit check measures its
 * record, then its commit stores it (a state keeps the sizes of the records it stored). A weak table
 * of every record's size cost each create more than the measure: adding to a weak table of hundreds
 * of thousands of keys is slow, and so is collecting it.
 */
let measured: AnyRecord | undefined;
let measuredSize = 0;
export function sizeOf(record: AnyRecord): number {
  if (record !== measured) {
    measuredSize = jsonLength(record);
    measured = record;
  }
  return measuredSize;
}

/**
 * The length of `JSON.stringify(value)`, counted without making the text (a write's hot path);
 * a string's escapes are not counted, so a string holding quotes or control characters counts
 * a few characters short.
 */
export function jsonLength(value: unknown): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return Array.isArray(value) ? arrayLength(value) : objectLength(value as Record<string, unknown>);
    default:
      return 0;
  }
}

function arrayLength(items: unknown[]): number {
  let length = 1 + Math.max(items.length - 1, 0) + 1;
  // An undefined or function item is written `null`, as JSON.stringify writes it.
  for (const item of items) length += item === undefined || typeof item === 'function' ? 4 : jsonLength(item);
  return length;
}

function objectLength(object: Record<string, unknown>): number {
  let length = 2;
  let members = 0;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const item = object[key];
    // Left out, as JSON.stringify leaves them out.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    length += key.length + 3 + jsonLength(item);
    members++;
  }
  return length + Math.max(members - 1, 0);
}

function indexOf(collection: string, records: AnyRecord[]): Map<string, number> {
  const field = keyField(collection);
  return new Map(records.map((r, i) => [String(r[field]), i]));
}

/** What {@link State} shows to readers outside the engine: a known collection's records typed. */
export interface StateView extends RecordReader {
  readonly revision: number;
  readonly lastChanges: readonly (readonly [collection: string, record: AnyRecord])[];
}

export class State implements StateView {
  readonly data: StoreData;
  private readonly indexes: Map<string, Indexed>;
  /** Collections this state may change (the others are shared with the state it was copied from). */
  private readonly owned = new Set<string>();
  /** Records this state created, per collection. */
  readonly created = new Map<string, number>();
  /** JSON bytes of the records this state stored itself. */
  bytes = 0;
  /** Writes committed to this state (a refused request leaves it as it was). */
  revision = 0;
  /**
   * Records stored in this state (every {@link put}: a commit's, or a state file's being loaded):
   * what a memo of its answers checks (./page-memo.ts), as any change of the state passes here.
   */
  edits = 0;
  /** The records the last committed write stored. */
  lastChanges: [collection: string, record: AnyRecord][] = [];

  constructor(data: StoreData, shared?: { indexes: Map<string, Indexed> }) {
    this.data = data;
    if (shared) {
      this.indexes = new Map(shared.indexes);
      return;
    }
    this.indexes = new Map();
    for (const [collection, records] of Object.entries(data)) {
      records.sort((a, b) => sortKey(collection, a) - sortKey(collection, b));
      this.indexes.set(collection, { records, positions: indexOf(collection, records) });
      this.owned.add(collection);
    }
  }
  list(collection: string): AnyRecord[] {
    return this.data[collection] ?? [];
  }
  get(collection: string, key: string | number): AnyRecord | undefined {
    const indexed = this.indexes.get(collection);
    const position = indexed?.positions.get(String(key));
    return position === undefined ? undefined : indexed?.records[position];
  }
  /**
   * The first record of `collection`, in key order, whose `by(record)` is `value`: an index made
   * once per reader function and collection change (a version's view reads related records by it,
   * ./view-cache.ts; `by` must be one constant function, it keys the index).
   */
  first(collection: string, by: (record: AnyRecord) => unknown, value: unknown): AnyRecord | undefined {
    const indexed = this.indexes.get(collection);
    if (!indexed) return undefined;
    indexed.lookups ??= new Map();
    let index = indexed.lookups.get(by);
    if (!index) {
      index = new Map();
      for (const record of indexed.records) {
        const field = by(record);
        if (!index.has(field)) index.set(field, record);
      }
      indexed.lookups.set(by, index);
    }
    return index.get(value);
  }
  /** The next free key of a collection (the highest numeric key + 1; non-numeric order numbers sort last). */
  nextKey(collection: string): number {
    const records = this.list(collection);
    for (let i = records.length - 1; i >= 0; i--) {
      const key = sortKey(collection, records[i] as AnyRecord);
      if (Number.isFinite(key)) return key + 1;
    }
    return 1;
  }
  /** Adds or replaces a record (kept in key order). */
  put(collection: string, record: AnyRecord): void {
    const indexed = this.own(collection);
    indexed.lookups = undefined;
    this.edits += 1;
    const { records, positions } = indexed;
    const field = keyField(collection);
    const key = String(record[field]);
    const position = positions.get(key);
    const size = sizeOf(record);
    this.bytes += size;
    if (position !== undefined) {
      const replaced = this.mine.get(records[position] as AnyRecord);
      if (replaced !== undefined) this.bytes -= replaced;
      records[position] = record;
    } else {
      this.created.set(collection, (this.created.get(collection) ?? 0) + 1);
      const last = records.at(-1);
      const order = sortKeyOf(record[field]);
      if (!last || sortKeyOf(last[field]) < order) {
        positions.set(key, records.length);
        records.push(record);
      } else {
        const at = search(records, (r) => sortKeyOf(r[field]), order, false);
        records.splice(at, 0, record);
        for (let i = at; i < records.length; i++) positions.set(String((records[i] as AnyRecord)[field]), i);
      }
    }
    this.mine.set(record, size);
  }
  /** Stores one write's records at once. */
  commit(changes: [collection: string, record: AnyRecord][]): void {
    for (const [collection, record] of changes) this.put(collection, record);
    this.revision += 1;
    this.lastChanges = changes;
  }
  /** Records this state stored itself, with their JSON size (their bytes count against its limit). */
  private readonly mine = new WeakMap<AnyRecord, number>();
  private own(collection: string): Indexed {
    if (!this.owned.has(collection)) {
      const records = [...(this.data[collection] ?? [])];
      this.data[collection] = records;
      this.indexes.set(collection, { records, positions: new Map(this.indexes.get(collection)?.positions) });
      this.owned.add(collection);
    }
    return this.indexes.get(collection) as Indexed;
  }
  /**
   * A copy for a snapshot: both this state and the copy share every collection and copy one before
   * changing it (a clone alone would still change this state's collections in place).
   */
  fork(): State {
    this.owned.clear();
    const copy = this.clone();
    // The copy holds what this state wrote: its counts go with it (bytes of records it later
    // replaces are not subtracted there, so its count errs on the safe side).
    for (const [collection, count] of this.created) copy.created.set(collection, count);
    copy.bytes = this.bytes;
    return copy;
  }
  /** A state sharing this one's collections until it writes to them. */
  clone(): State {
    return new State({ ...this.data }, { indexes: this.indexes });
  }
}
