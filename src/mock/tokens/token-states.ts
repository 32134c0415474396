/**
 * Every token's state (or the one shared state), its named snapshots, and how changes reach them:
 * browser-safe, the state file being an injected {@link Persistence} (./../persistence/journal.ts in
 * Node). The engine asks this store for a state to read, opens a {@link Ticket} when a write request
 * arrives and commits the write's changes through it; a reset or restore cancels the tickets open on
 * that state, so a write that started before a reset never lands after it (the engine answers 409).
 *
 * Memory: states live in a {@link Registry} evicted by last use. The cost of a state is estimated as
 * the JSON bytes of the records it wrote plus {@link SLOT_BYTES} per record of each collection it
 * copied, plus the answer texts its reads kept for those records ({@link TokenStore.chargeTexts}). An
 * evicted state is reloaded from the state file on its token's next request; without a
 * state file it is gone, and its token's requests are refused (410) until it is reset, instead of
 * silently reading the seeded data.
 */

import type { State } from '../collection-state.ts';
import { DEFAULT_LIMITS, MAX_TOKEN_STATES, MEMORY_BUDGET } from '../limits.ts';
import { keyField, type Rec, type StoreData } from '../model/index.ts';
import {
  type Change,
  type Entry,
  type EntryCheck,
  emptyImage,
  SHARED_KEY,
  type TokenImage,
} from '../persistence/entries.ts';
import { loadCheck } from './load-check.ts';
import { Registry } from './registry.ts';

/** Estimated bytes per record slot of a copied collection (its array cell and index entry). */
export const SLOT_BYTES = 100;
/** Keys of evicted states remembered (without a state file) to refuse their requests. */
const MAX_TOMBSTONES = 100_000;

/** What the store needs of a state file (the Node journal; absent in memory-only mode). */
export interface Persistence {
  has(token: string): boolean;
  tokens(): string[];
  load(token: string): TokenImage | undefined;
  append(entry: Entry): Promise<void>;
  /** Set by the store: why an entry is not loaded (./load-check.ts). */
  check?: EntryCheck | undefined;
}

export interface TokenStoreOptions {
  /** The seeded state every token state starts from (never written). */
  seed: State;
  /** One state for every token. */
  shared: boolean;
  persistence?: Persistence;
  maxStates?: number;
  maxBytes?: number;
  /** Snapshots one state may hold (./../limits.ts). */
  maxSnapshots?: number;
  /** Records one state may create per collection, and bytes of records it may hold (what a state file may load). */
  maxRecords?: number;
  maxStateBytes?: number;
  /** Why a record from the state file breaks its collection's schema, or undefined. */
  checkRecord?: (collection: string, record: Rec) => string | undefined;
  now?: () => Date;
}

/** A write in flight: cancelled by a reset or restore of its state before it commits. */
export interface Ticket {
  key: string;
  cancelled: boolean;
}

export interface SnapshotInfo {
  name: string;
  at: string;
  collections: string[];
}

export interface StateSummary {
  key: string;
  /** Collections written since the last reset. */
  changed: string[];
  snapshots: SnapshotInfo[];
  /** Estimated bytes this state holds beyond the seeded data. */
  bytes: number;
  /** `memory` (loaded) or `file` (only in the state file, loaded on its next request). */
  where: 'memory' | 'file';
  /** Every change of it is written to the state file (the mock runs with one). */
  durable: boolean;
  /** Its memory copy was rebuilt from the state file (at a restart, or after an eviction). */
  fromFile: boolean;
}

interface Held {
  state: State;
  /** Rebuilt from the state file, not written since a reset here. */
  fromFile?: boolean;
  changed: Set<string>;
  snapshots: Map<string, { at: string; state: State; changed: Set<string> }>;
}

export class TokenStore {
  private readonly seed: State;
  readonly shared: boolean;
  private readonly persistence: Persistence | undefined;
  private readonly now: () => Date;
  private readonly registry: Registry<Held>;
  private readonly tickets = new Set<Ticket>();
  private readonly tombstones = new Set<string>();
  readonly maxSnapshots: number;

  constructor(options: TokenStoreOptions) {
    this.seed = options.seed;
    this.shared = options.shared;
    this.persistence = options.persistence;
    this.maxSnapshots = options.maxSnapshots ?? DEFAULT_LIMITS.maxSnapshots;
    if (this.persistence) {
      this.persistence.check = loadCheck({
        seed: this.seed,
        maxRecords: options.maxRecords ?? DEFAULT_LIMITS.maxRecords,
        maxStateBytes: options.maxStateBytes ?? DEFAULT_LIMITS.maxStateBytes,
        maxSnapshots: this.maxSnapshots,
        ...(options.checkRecord && { checkRecord: options.checkRecord }),
      });
    }
    this.now = options.now ?? (() => new Date());
    this.registry = new Registry<Held>({
      maxStates: options.maxStates ?? MAX_TOKEN_STATES,
      maxBytes: options.maxBytes ?? MEMORY_BUDGET,
      onEvict: (key) => {
        if (this.persistence) return; // reloaded from the file on its next request
        this.tombstones.add(key);
        if (this.tombstones.size > MAX_TOMBSTONES)
          this.tombstones.delete(this.tombstones.values().next().value as string);
      },
    });
  }

  /** The key of a token's state (every token shares one key with `--shared-state`). */
  keyOf(token: string): string {
    return this.shared ? SHARED_KEY : token;
  }

  get limits(): { maxStates: number; maxBytes: number } {
    return { maxStates: this.registry.maxStates, maxBytes: this.registry.maxBytes };
  }

  /** The state a token reads: its own, or the seeded one (until it writes, or if it was evicted). */
  read(token: string): State {
    const key = this.keyOf(token);
    if (this.tombstones.has(key)) return this.seed;
    return this.held(key, false)?.state ?? this.seed;
  }

  /** True when the token's state was evicted and cannot be reloaded (no state file). */
  evicted(token: string): boolean {
    return this.tombstones.has(this.keyOf(token));
  }

  /** Opens a write on a token's state (call {@link end} when the request is answered). */
  begin(token: string): Ticket {
    const ticket = { key: this.keyOf(token), cancelled: false };
    this.tickets.add(ticket);
    return ticket;
  }

  end(ticket: Ticket): void {
    this.tickets.delete(ticket);
  }

  /**
   * Applies a write's changed records, unless a reset or restore came first (`conflict`) or the
   * state was evicted without a state file (`evicted`). With a state file, resolves once the
   * change is durable; without one there is nothing to wait for (`applied`).
   */
  commit(
    ticket: Ticket,
    records: [collection: string, record: Rec][],
  ): Promise<void> | 'applied' | 'conflict' | 'evicted' {
    if (ticket.cancelled) return 'conflict';
    if (this.tombstones.has(ticket.key)) return 'evicted';
    const held = this.held(ticket.key, true) as Held;
    const changes: Change[] = records.map(([collection, record]) => [
      collection,
      String(record[keyField(collection)]),
      record,
    ]);
    const before = held.state.bytes;
    let bytes = 0;
    for (const [collection] of records) {
      if (!held.changed.has(collection)) bytes += SLOT_BYTES * held.state.list(collection).length;
      held.changed.add(collection);
    }
    held.state.commit(records);
    this.registry.charge(ticket.key, bytes + held.state.bytes - before);
    return this.persistence ? this.persistence.append({ op: 'put', token: ticket.key, changes }) : 'applied';
  }

  /** Back to the seeded data: one token's state, or every state (`all`). Snapshots stay. */
  reset(token: string | { all: true }): Promise<void> {
    if (typeof token !== 'string' && !this.shared) {
      this.cancel(undefined);
      this.tombstones.clear();
      for (const [key, held] of this.registry.entries()) this.set(key, this.blank(held));
      return this.persist({ op: 'reset', all: true });
    }
    const key = typeof token === 'string' ? this.keyOf(token) : SHARED_KEY;
    this.cancel(key);
    this.tombstones.delete(key);
    const held = this.held(key, false);
    if (held) this.set(key, this.blank(held));
    return this.persist({ op: 'reset', token: key });
  }

  /**
   * Saves a token's state as `name` (replacing one of that name: `created` false); `full` when the
   * state already holds {@link maxSnapshots} others (a snapshot costs its own state, never another's).
   */
  snapshot(name: string, token: string): { info: SnapshotInfo; created: boolean; durable: Promise<void> } | 'full' {
    const key = this.keyOf(token);
    const held = this.held(key, true) as Held;
    const at = this.now().toISOString();
    const created = !held.snapshots.has(name);
    if (created && held.snapshots.size >= this.maxSnapshots) return 'full';
    const snapshot = { at, state: held.state.fork(), changed: new Set(held.changed) };
    held.snapshots.set(name, snapshot);
    this.registry.charge(key, slotsOf(snapshot));
    const durable = this.persist({ op: 'snapshot', token: key, name, at });
    return { info: infoOf(name, snapshot), created, durable };
  }

  /** Makes snapshot `name` a token's state again; undefined when there is no such snapshot. */
  restore(name: string, token: string): Promise<void> | undefined {
    const key = this.keyOf(token);
    const held = this.held(key, false);
    const snapshot = held?.snapshots.get(name);
    if (!held || !snapshot) return undefined;
    this.cancel(key);
    this.tombstones.delete(key);
    this.set(key, { state: snapshot.state.fork(), changed: new Set(snapshot.changed), snapshots: held.snapshots });
    return this.persist({ op: 'restore', token: key, name });
  }

  /** Deletes snapshot `name`; undefined when there is no such snapshot. */
  drop(name: string, token: string): Promise<void> | undefined {
    const key = this.keyOf(token);
    const held = this.held(key, false);
    if (!held?.snapshots.delete(name)) return undefined;
    return this.persist({ op: 'drop', token: key, name });
  }

  /** Keys of every state, loaded (last used first) or only in the state file; none is read from the file. */
  keys(): string[] {
    const loaded = this.registry
      .entries()
      .reverse()
      .map(([key]) => key);
    const inMemory = new Set(loaded);
    return [...loaded, ...(this.persistence?.tokens() ?? []).filter((key) => !inMemory.has(key))];
  }

  /**
   * Restores snapshot `name` in every state that has it and resets the others (a snapshot of every
   * state, taken state by state, made whole again). False, changing nothing, when none has it.
   */
  restoreEvery(name: string): Promise<void> | false {
    const keys = this.keys();
    const having = keys.filter((key) => this.held(key, false)?.snapshots.has(name));
    if (having.length === 0) return false;
    const done = keys.map((key) => (having.includes(key) ? this.restore(name, key) : this.reset(key)));
    return Promise.all(done).then(() => undefined);
  }

  snapshots(token: string): SnapshotInfo[] {
    const held = this.held(this.keyOf(token), false);
    return [...(held?.snapshots ?? [])].map(([name, snapshot]) => infoOf(name, snapshot));
  }

  /** The data a token's state holds now (the seeded data for a token that never wrote). */
  data(token: string): StoreData {
    return this.read(token).data;
  }

  /**
   * Every state, loaded or only in the state file, for the inspector. What a state only in the
   * file changed is read from its entries (as its next request would load them, without keeping it).
   */
  summaries(): StateSummary[] {
    const loaded = this.registry.entries().reverse();
    const inMemory = new Set(loaded.map(([key]) => key));
    const durable = this.persistence !== undefined;
    const summary = ([key, held, bytes]: [string, Held, number]): StateSummary => ({
      key,
      changed: [...held.changed],
      snapshots: [...held.snapshots].map(([name, snapshot]) => infoOf(name, snapshot)),
      bytes,
      where: 'memory',
      durable,
      fromFile: held.fromFile === true,
    });
    const onDisk = (this.persistence?.tokens() ?? [])
      .filter((key) => !inMemory.has(key))
      .map((key): StateSummary => {
        const image = this.persistence?.load(key) ?? emptyImage();
        const snapshots = [...image.snapshots].map(([name, { at, state }]) =>
          infoOf(name, { at, changed: state.keys() }),
        );
        const changed = [...image.live.keys()];
        return { key, changed, snapshots, bytes: 0, where: 'file', durable, fromFile: true };
      });
    return [...loaded.map(summary), ...onDisk];
  }

  /**
   * Counts in a token's state estimate the answer texts a read of it kept (../view-cache.ts) for
   * records that are not the seeded ones (those are shared by every state, as the seeded data is):
   * they live as long as the state's records, so they are evicted with it.
   */
  chargeTexts(token: string, texts: readonly [collection: string, record: Rec, bytes: number][]): void {
    const key = this.keyOf(token);
    let bytes = 0;
    for (const [collection, record, size] of texts)
      if (this.seed.get(collection, record[keyField(collection)]) !== record) bytes += size;
    if (bytes > 0) this.registry.charge(key, bytes);
  }

  /** Resident states and their estimated bytes. */
  get usage(): { states: number; bytes: number } {
    return { states: this.registry.size, bytes: this.registry.bytes };
  }

  private persist(entry: Entry): Promise<void> {
    return this.persistence ? this.persistence.append(entry) : Promise.resolve();
  }

  private cancel(key: string | undefined): void {
    for (const ticket of this.tickets) if (key === undefined || ticket.key === key) ticket.cancelled = true;
  }

  private blank(held: Held): Held {
    return { state: this.seed.clone(), changed: new Set(), snapshots: held.snapshots };
  }

  /** A loaded state, reloaded from the state file, or (`create`) a new one from the seeded data. */
  private held(key: string, create: boolean): Held | undefined {
    const found = this.registry.get(key);
    if (found) return found;
    const image = this.persistence?.has(key) ? this.persistence.load(key) : undefined;
    if (!image && !create) return undefined;
    const held = this.fromImage(image ?? emptyImage());
    if (image) held.fromFile = true;
    this.set(key, held);
    return held;
  }

  /** Puts a state in the registry, its cost estimated (../collection-state.ts counts the bytes of its records). */
  private set(key: string, held: Held): void {
    let bytes = held.state.bytes + slotsOf(held);
    for (const snapshot of held.snapshots.values()) bytes += slotsOf(snapshot);
    this.registry.set(key, held, bytes);
  }

  private fromImage(image: TokenImage): Held {
    const build = (changes: TokenImage['live']) => {
      const state = this.seed.clone();
      for (const [collection, records] of changes) for (const record of records.values()) state.put(collection, record);
      return { state, changed: new Set(changes.keys()) };
    };
    const snapshots = new Map<string, { at: string; state: State; changed: Set<string> }>();
    for (const [name, snapshot] of image.snapshots) snapshots.set(name, { at: snapshot.at, ...build(snapshot.state) });
    return { ...build(image.live), snapshots };
  }
}

function infoOf(name: string, snapshot: { at: string; changed: Iterable<string> }): SnapshotInfo {
  return { name, at: snapshot.at, collections: [...snapshot.changed] };
}

/** The estimated bytes of the collections a state (or snapshot) copied: their record slots. */
function slotsOf(held: { state: State; changed: Set<string> }): number {
  let bytes = 0;
  for (const collection of held.changed) bytes += SLOT_BYTES * held.state.list(collection).length;
  return bytes;
}
