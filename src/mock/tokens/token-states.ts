/**
 * The token store: every token's state in memory (./memory-states.ts: reads, writes, resets,
 * eviction), plus what is kept beside a state: its named snapshots, the global snapshots owned by
 * no state (./globals.ts) and the forks of them, and the listing of every state for the inspector
 * (a state only in the state file summarized by ./file-states.ts).
 *
 * Forks: a state may lie over a global snapshot instead of the seeded data. It starts as a
 * copy-on-write copy of that snapshot (sharing every collection and record until it writes), costs
 * only what it writes, goes back to that snapshot on a reset, and is journaled as a reference to it
 * plus its own changes.
 */

import { FileSummaries } from './file-states.ts';
import { changesOver, type Definition, definitionId } from './globals.ts';
import {
  type Held,
  infoOf,
  originOf,
  type SnapshotInfo,
  type StateSummary,
  slotsOf,
  type TokenStoreOptions,
} from './held.ts';
import { MemoryStates } from './memory-states.ts';

/** A snapshot taken: what it is, whether its name was new, and when it is in the state file. */
type Taken = { info: SnapshotInfo; created: boolean; durable: Promise<void> };

export class TokenStore extends MemoryStates {
  private readonly fileSummaries: FileSummaries | undefined;

  constructor(options: TokenStoreOptions) {
    super(options);
    this.fileSummaries = this.persistence && new FileSummaries(this.persistence);
  }

  /**
   * Saves a token's state as `name` (replacing one of that name: `created` false); `full` when the
   * state already holds {@link maxSnapshots} others (a snapshot costs its own state, never another's).
   */
  snapshot(name: string, token: string): Taken | 'full' {
    const key = this.keyOf(token);
    const held = this.held(key, true) as Held;
    const at = this.now().toISOString();
    const created = !held.snapshots.has(name);
    if (created && held.snapshots.size >= this.maxSnapshots) return 'full';
    const snapshot = { at, state: held.state.fork(), changed: new Set(held.changed), origin: held.origin };
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
    const { state, changed, origin } = snapshot;
    this.set(key, { state: state.fork(), changed: new Set(changed), origin, snapshots: held.snapshots });
    return this.persist({ op: 'restore', token: key, name });
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

  /** Deletes snapshot `name`; undefined when there is no such snapshot. */
  drop(name: string, token: string): Promise<void> | undefined {
    const key = this.keyOf(token);
    const held = this.held(key, false);
    if (!held?.snapshots.delete(name)) return undefined;
    return this.persist({ op: 'drop', token: key, name });
  }

  snapshots(token: string): SnapshotInfo[] {
    const held = this.held(this.keyOf(token), false);
    return [...(held?.snapshots ?? [])].map(([name, snapshot]) => infoOf(name, snapshot));
  }

  /**
   * Saves a token's state as global snapshot `name`, owned by no state (replacing one of that name:
   * the forks of the one replaced keep it); `full` beyond {@link maxSnapshots} global snapshots.
   * The state file gets the snapshot's records whole, once: its forks name it.
   */
  publish(name: string, token: string): Taken | 'full' {
    const held = this.held(this.keyOf(token), false);
    const created = this.globals.get(name) === undefined;
    if (created && this.globals.size >= this.maxSnapshots) return 'full';
    const state = held ? held.state.fork() : this.seed.clone();
    const changed = new Set([...(held?.origin?.changed ?? []), ...(held?.changed ?? [])]);
    const definition: Definition = { name, id: definitionId(), at: this.now().toISOString(), state, changed };
    this.globals.add(definition);
    const changes = this.persistence ? changesOver(this.seed, state, changed) : [];
    const durable = this.persist({ op: 'global', name, id: definition.id, at: definition.at, changes });
    return { info: infoOf(name, definition), created, durable };
  }

  /** Deletes global snapshot `name` (its forks keep their copy); undefined when there is none. */
  unpublish(name: string): Promise<void> | undefined {
    if (!this.globals.delete(name)) return undefined;
    return this.persist({ op: 'unglobal', name });
  }

  /** The global snapshots, oldest first. */
  globalSnapshots(): SnapshotInfo[] {
    return this.globals.values().map((definition) => infoOf(definition.name, definition));
  }

  /**
   * Makes a token's state a fork of global snapshot `name` (its own snapshots stay; writes in
   * flight on it are cancelled, as by a reset); undefined when there is no such snapshot.
   */
  fork(name: string, token: string): Promise<void> | undefined {
    const definition = this.globals.get(name);
    if (!definition) return undefined;
    const key = this.keyOf(token);
    this.cancel(key);
    this.tombstones.delete(key);
    this.set(key, this.over(definition, this.held(key, false)?.snapshots ?? new Map()));
    return this.persist({ op: 'fork', token: key, name, id: definition.id, at: definition.at });
  }

  /**
   * Every state, loaded (last used first) or only in the state file, for the inspector. What a state
   * only in the file changed is read from its entries (as its next request would load them, without
   * keeping it) when it changed since the last listing (./file-states.ts).
   */
  summaries(): StateSummary[] {
    const loaded = this.registry.entries().reverse();
    const durable = this.persistence !== undefined;
    const summary = ([key, held, bytes]: [string, Held, number]): StateSummary => ({
      key,
      changed: [...held.changed],
      snapshots: [...held.snapshots].map(([name, snapshot]) => infoOf(name, snapshot)),
      bytes,
      where: 'memory',
      durable,
      fromFile: held.fromFile === true,
      origin: originOf(held.origin),
    });
    const inMemory = new Set(loaded.map(([key]) => key));
    const onDisk = this.fileSummaries?.list(this.persistence?.tokens() ?? [], inMemory) ?? [];
    return [...loaded.map(summary), ...onDisk];
  }
}
