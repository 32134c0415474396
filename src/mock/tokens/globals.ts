/**
 * Global snapshots, the ones forks start from (docs/mock.md "Forks"): a named copy of a state owned
 * by no token state, so that it is never evicted with one and every token can fork it. A global
 * snapshot is a {@link Definition}: a read-only {@link State} with an id. Replacing or deleting the
 * snapshot makes a new definition or none current; the forks keep the definition they started
 * from (they hold it, and the state file keeps its line while a fork names it), so a fork never
 * changes because its snapshot did. Browser-safe.
 */

import type { State } from '../collection-state.ts';
import { keyField, type Rec } from '../model/index.ts';
import type { Change, Origin } from '../persistence/entries.ts';

/** One definition of a global snapshot: never written once made (forks copy it on write). */
export interface Definition extends Origin {
  state: State;
  /** Collections it holds records of beyond the seeded data. */
  changed: Set<string>;
}

/** `bytes` random bytes in hex (getRandomValues: in every browser context, unlike randomUUID). */
export function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return [...values].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** An id no other definition has, in this process or in a state file written before. */
export function definitionId(): string {
  return `${Date.now().toString(36)}-${randomHex(6)}`;
}

/** The records of `state` that are not the seeded data's, in `collections` (a global line's changes). */
export function changesOver(seed: State, state: State, collections: Iterable<string>): Change[] {
  const changes: Change[] = [];
  for (const collection of collections) {
    const field = keyField(collection);
    for (const record of state.list(collection)) {
      const key = String(record[field]);
      if (seed.get(collection, key) !== record) changes.push([collection, key, record]);
    }
  }
  return changes;
}

/** A definition rebuilt from its `global` line over the seeded data. */
export function definitionOf(seed: State, origin: Origin, changes: Change[]): Definition {
  const state = seed.clone();
  const changed = new Set<string>();
  for (const [collection, , record] of changes) {
    state.put(collection, record as Rec);
    changed.add(collection);
  }
  return { ...origin, state, changed };
}
