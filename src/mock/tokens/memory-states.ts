/**
 * The token states in memory (the base of ./token-states.ts): each token's state (or the one shared
 * state), read and written through {@link Ticket}s, reset, evicted by last use, reloaded from the
 * state file. Browser-safe, the state file being an injected {@link Persistence}
 * (./../persistence/journal.ts in Node). The engine asks for a state to read, opens a ticket when a
 * write request arrives and commits the write's changes through it; a reset (or a restore, a fork)
 * cancels the tickets open on that state, so a write that started before it never lands after it
 * (the engine answers 409).
 *
 * Memory: states live in a {@link Registry} evicted by last use. The cost of a state is estimated as
 * the JSON bytes of the records it wrote plus {@link SLOT_BYTES} per record of each collection it
 * copied, plus the answer texts its reads kept for those records ({@link MemoryStates.chargeTexts}). An
 * evicted state is reloaded from the state file on its token's next request; without a
 * state file it is gone, and its token's requests are refused (410) until it is reset, instead of
 * silently reading the seeded data.
 */

import type { State } from '../collection-state.ts';
import { DEFAULT_LIMITS, MAX_TOKEN_STATES, MEMORY_BUDGET } from '../limits.ts';
import { type AnyRecord, keyField, type StoreData } from '../model/index.ts';
import { type Change, type Entry, emptyImage, SHARED_KEY } from '../persistence/entries.ts';
import { fromImage } from './file-states.ts';
import { type Definition, GlobalSnapshots } from './globals.ts';
import {
  type Held,
  type Persistence,
  type Saved,
  SLOT_BYTES,
  slotsOf,
  type Ticket,
  type TokenStoreOptions,
} from './held.ts';
import { loadCheck } from './load-check.ts';
import { Registry } from './registry.ts';

/** Keys of evicted states remembered (without a state file) to refuse their requests. */
const MAX_TOMBSTONES = 100_000;

export class MemoryStates {
  protected readonly seed: State;
  readonly shared: boolean;
  protected readonly persistence: Persistence | undefined;
  protected readonly now: () => Date;
  protected readonly registry: Registry<Held>;
  /**
   * The writes in flight: a few at most (a write is answered within one turn unless it waits). An
   * array, not a Set: deleting a Set's last entry shrinks its table, an allocation per write.
   */
  private readonly tickets: Ticket[] = [];
  protected readonly tombstones = new Set<string>();
  /** The global snapshots forks lie over (./globals.ts), loaded from the state file. */
  protected readonly globals: GlobalSnapshots;
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
    // After the load check is set: a global snapshot's records pass it too.
    this.globals = new GlobalSnapshots(this.seed, this.persistence);
  }

  /** The key of a token's state (every token shares one key with `--shared-state`). */
  keyOf(token: string): string {
    return this.shared ? SHARED_KEY : token;
  }
  /**
   * Counts in a token's state estimate the answer texts a read of it kept (../view-cache.ts) for
   * records that are not the seeded ones (those are shared by every state, as the seeded data is):
   * they live as long as the state's records, so they are evicted with it.
   */
  chargeTexts(token: string, texts: readonly [collection: string, record: AnyRecord, bytes: number][]): void {
    const key = this.keyOf(token);
    let bytes = 0;
    for (const [collection, record, size] of texts)
      if (this.seed.get(collection, record[keyField(collection)]) !== record) bytes += size;
    if (bytes > 0) this.registry.charge(key, bytes);
  }

  /**
   * Counts in a token's state estimate the change of its memo of list answers (../page-memo.ts), when
   * `state` is the one its token holds now (the seeded state's memo, shared by every token that
   * never wrote, is bounded but counted in none; a state reset since had its estimate made anew).
   */
  chargeMemo(token: string, state: State, bytes: number): void {
    const key = this.keyOf(token);
    if (bytes !== 0 && this.registry.get(key)?.state === state) this.registry.charge(key, bytes);
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
    this.tickets.push(ticket);
    return ticket;
  }

  end(ticket: Ticket): void {
    const at = this.tickets.lastIndexOf(ticket);
    if (at < 0) return;
    // The last one moved into its place (their order does not matter).
    const last = this.tickets.pop() as Ticket;
    if (at < this.tickets.length) this.tickets[at] = last;
  }

  /**
   * Applies a write's changed records, unless a reset or restore came first (`conflict`) or the
   * state was evicted without a state file (`evicted`). With a state file, resolves once the
   * change is durable; without one there is nothing to wait for (`applied`).
   */
  commit(
    ticket: Ticket,
    records: [collection: string, record: AnyRecord][],
  ): Promise<void> | 'applied' | 'conflict' | 'evicted' {
    if (ticket.cancelled) return 'conflict';
    if (this.tombstones.has(ticket.key)) return 'evicted';
    const held = this.held(ticket.key, true) as Held;
    const before = held.state.bytes;
    let bytes = 0;
    for (const [collection] of records) {
      if (!held.changed.has(collection)) bytes += SLOT_BYTES * held.state.list(collection).length;
      held.changed.add(collection);
    }
    held.state.commit(records);
    this.registry.charge(ticket.key, bytes + held.state.bytes - before);
    if (!this.persistence) return 'applied';
    const changes: Change[] = records.map(([collection, record]) => [
      collection,
      String(record[keyField(collection)]),
      record,
    ]);
    return this.persistence.append({ op: 'put', token: ticket.key, changes });
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

  /** Keys of every state, loaded (last used first) or only in the state file; none is read from the file. */
  keys(): string[] {
    const loaded = this.registry
      .entries()
      .reverse()
      .map(([key]) => key);
    const inMemory = new Set(loaded);
    return [...loaded, ...(this.persistence?.tokens() ?? []).filter((key) => !inMemory.has(key))];
  }

  /** The data a token's state holds now (the seeded data for a token that never wrote). */
  data(token: string): StoreData {
    return this.read(token).data;
  }

  /** Resident states and their estimated bytes. */
  get usage(): { states: number; bytes: number } {
    return { states: this.registry.size, bytes: this.registry.bytes };
  }

  protected persist(entry: Entry): Promise<void> {
    return this.persistence ? this.persistence.append(entry) : Promise.resolve();
  }

  /** Cancels the writes in flight on a state (every state: `undefined`). */
  protected cancel(key: string | undefined): void {
    for (const ticket of this.tickets) if (key === undefined || ticket.key === key) ticket.cancelled = true;
  }

  /** Back to what a state lies over: its global snapshot (a fork), else the seeded data. */
  private blank(held: Held): Held {
    return this.over(held.origin, held.snapshots);
  }

  /** A state with no changes of its own over `origin` (undefined: the seeded data). */
  protected over(origin: Definition | undefined, snapshots: Map<string, Saved>): Held {
    return { state: origin ? origin.state.fork() : this.seed.clone(), changed: new Set(), origin, snapshots };
  }

  /** A loaded state, reloaded from the state file, or (`create`) a new one from the seeded data. */
  protected held(key: string, create: boolean): Held | undefined {
    const found = this.registry.get(key);
    if (found) return found;
    const image = this.persistence?.has(key) ? this.persistence.load(key) : undefined;
    if (!image && !create) return undefined;
    const held = fromImage(image ?? emptyImage(), this.seed, (origin) => this.globals.of(origin));
    if (image) held.fromFile = true;
    this.set(key, held);
    return held;
  }

  /**
   * Puts a state in the registry, its cost estimated (../collection-state.ts counts the bytes of its
   * records; a fork's count starts at its snapshot's, which it shares and does not cost).
   */
  protected set(key: string, held: Held): void {
    let bytes = held.state.bytes - (held.origin?.state.bytes ?? 0) + slotsOf(held);
    for (const snapshot of held.snapshots.values()) bytes += slotsOf(snapshot);
    this.registry.set(key, held, bytes);
  }
}
