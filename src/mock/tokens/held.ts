/**
 * The shapes of the token store (./token-states.ts): what a state holds in memory ({@link Held}), a
 * snapshot of it ({@link Saved}), what the store needs of a state file ({@link Persistence}), a
 * write in flight ({@link Ticket}), and what the inspector lists ({@link StateSummary}); with the
 * cost estimate every part of the store charges (record slots of the collections a state copied).
 */

import type { State } from '../collection-state.ts';
import type { AnyRecord } from '../model/index.ts';
import type { Entry, EntryCheck, Origin, TokenImage } from '../persistence/entries.ts';
import type { Definition, DefinitionSource } from './globals.ts';

/** Estimated bytes per record slot of a copied collection (its array cell and index entry). */
export const SLOT_BYTES = 100;

/** What the store needs of a state file (the Node journal; absent in memory-only mode). */
export interface Persistence extends DefinitionSource {
  has(token: string): boolean;
  tokens(): string[];
  load(token: string): TokenImage | undefined;
  append(entry: Entry): Promise<void>;
  /** Set by the store: why an entry is not loaded (./load-check.ts). */
  check?: EntryCheck | undefined;
  /**
   * A value that changes whenever a token's entries do (a new line, a compaction, a cut after a
   * failed write); what the inspector lists of a state only in the file is kept until it changes
   * (./file-states.ts). Without it, every listing reads the file.
   */
  stamp?(token: string): string | undefined;
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
  checkRecord?: (collection: string, record: AnyRecord) => string | undefined;
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
  /** The global snapshot a fork lies over (what a reset brings back); null: the seeded data. */
  origin: { snapshot: string; at: string } | null;
}

/** A state as saved by a snapshot: its data, its own changed collections and what it lies over. */
export interface Saved {
  at: string;
  state: State;
  changed: Set<string>;
  origin?: Definition | undefined;
}

export interface Held {
  state: State;
  /** Rebuilt from the state file, not written since a reset here. */
  fromFile?: boolean;
  /** Collections written since the last reset (a fork's: over its snapshot's). */
  changed: Set<string>;
  /** The global snapshot this state is a fork of; undefined: the seeded data. */
  origin?: Definition | undefined;
  snapshots: Map<string, Saved>;
}

export function originOf(origin: Origin | undefined): StateSummary['origin'] {
  return origin ? { snapshot: origin.name, at: origin.at } : null;
}

export function infoOf(name: string, snapshot: { at: string; changed: Iterable<string> }): SnapshotInfo {
  return { name, at: snapshot.at, collections: [...snapshot.changed] };
}

/** The estimated bytes of the collections a state (or snapshot) copied: their record slots. */
export function slotsOf(held: { state: State; changed: Set<string> }): number {
  let bytes = 0;
  for (const collection of held.changed) bytes += SLOT_BYTES * held.state.list(collection).length;
  return bytes;
}
