/**
 * Global snapshots, the ones forks start from (docs/mock.md "Forks"): a named copy of a state owned
 * by no token state, so that it is never evicted with one and every token can fork it. A global
 * snapshot is a {@link Definition}: a read-only {@link State} with an id. Replacing or deleting the
 * snapshot makes a new definition or none current; the forks keep the definition they started
 * from (they hold it, and the state file keeps its line while a fork names it), so a fork never
 * changes because its snapshot did. {@link GlobalSnapshots} keeps the current ones and finds the
 * definition a fork names. Browser-safe.
 */

import type { State } from '../collection-state.ts';
import { type AnyRecord, keyField } from '../model/index.ts';
import type { Change, Origin } from '../persistence/entries.ts';

/** One definition of a global snapshot: never written once made (forks copy it on write). */
export interface Definition extends Origin {
  state: State;
  /** Collections it holds records of beyond the seeded data. */
  changed: Set<string>;
}

/** What a state file tells of global snapshots (./held.ts `Persistence`; a state file without forks may omit it). */
export interface DefinitionSource {
  /** The current global snapshots, name -> definition id. */
  globalNames?: ReadonlyMap<string, string>;
  /** A global snapshot's definition by id: the records it holds beyond the seeded data (checked by `check`). */
  definition?(id: string): (Origin & { changes: Change[] }) | undefined;
}

/** Definitions no longer current that were rebuilt from the state file, kept for the next fork reloaded. */
const MAX_RETIRED = 16;

/** The global snapshots, by name in the order they were made, and the definitions forks name. */
export class GlobalSnapshots {
  private readonly current = new Map<string, Definition>();
  private readonly retired = new Map<string, Definition>();

  /** Loads the current ones from the state file (`source`: its load check already set). */
  constructor(
    private readonly seed: State,
    private readonly source: DefinitionSource | undefined,
  ) {
    for (const [name, id] of source?.globalNames ?? []) {
      const definition = this.load(id);
      if (definition) this.current.set(name, definition);
    }
  }

  get size(): number {
    return this.current.size;
  }

  get(name: string): Definition | undefined {
    return this.current.get(name);
  }

  /** Oldest first. */
  values(): Definition[] {
    return [...this.current.values()];
  }

  /** Makes `definition` current under its name, the newest (the forks of one it replaces keep theirs). */
  add(definition: Definition): void {
    this.current.delete(definition.name);
    this.current.set(definition.name, definition);
  }

  delete(name: string): boolean {
    return this.current.delete(name);
  }

  /** The definition a fork names: the current one of that name, or one rebuilt from the state file. */
  of(origin: Origin): Definition | undefined {
    const current = this.current.get(origin.name);
    if (current?.id === origin.id) return current;
    const retired = this.retired.get(origin.id) ?? this.load(origin.id);
    if (retired && !this.retired.has(origin.id)) {
      this.retired.set(origin.id, retired);
      if (this.retired.size > MAX_RETIRED) this.retired.delete(this.retired.keys().next().value as string);
    }
    return retired;
  }

  /** A definition from the state file; undefined when it is missing or fails the load check (the journal's). */
  private load(id: string): Definition | undefined {
    const line = this.source?.definition?.(id);
    return line && definitionOf(this.seed, { name: line.name, id, at: line.at }, line.changes);
  }
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
    state.put(collection, record as AnyRecord);
    changed.add(collection);
  }
  return { ...origin, state, changed };
}
