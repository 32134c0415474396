/**
 * The engine's state methods in code (`engine.reset`, `snapshot`, `restore`, `export`), over the
 * token store: a token names its state; without one, the shared state with `sharedState`, else
 * every state (reset, snapshot, restore) or the seeded data (export).
 */

import type { StateView } from '../collection-state.ts';
import { fixturesOf, type MockFixtures } from '../model/fixtures.ts';
import type { StoreData } from '../model/index.ts';
import { SHARED_KEY } from '../persistence/entries.ts';
import type { SnapshotInfo, TokenStore } from './token-states.ts';

export function stateApi(store: TokenStore) {
  const every = (token: string | undefined) => token === undefined && !store.shared;
  const keyOf = (token: string | undefined) => (token === undefined ? SHARED_KEY : store.keyOf(token));

  function snapshot(): StoreData;
  function snapshot(name: string, token?: string): Promise<SnapshotInfo[]>;
  function snapshot(name?: string, token?: string): StoreData | Promise<SnapshotInfo[]> {
    if (name === undefined) return structuredClone(store.data(SHARED_KEY)); // the deprecated form
    const keys = every(token) ? store.keys() : [keyOf(token)];
    const taken = keys.map((key) => store.snapshot(name, key));
    const full = taken.filter((t) => t === 'full').length;
    if (full > 0) {
      const message = `${full} state(s) already hold ${store.maxSnapshots} snapshots (maxSnapshots): delete one first`;
      return Promise.reject(new RangeError(message));
    }
    const saved = taken as Exclude<(typeof taken)[number], 'full'>[];
    return Promise.all(saved.map((t) => t.durable)).then(() => saved.map((t) => t.info));
  }

  return {
    reset: (token?: string): Promise<void> => store.reset(token === undefined ? { all: true } : token),
    snapshot,
    async restore(name: string, token?: string): Promise<boolean> {
      const done = every(token) ? store.restoreEvery(name) : store.restore(name, keyOf(token));
      if (!done) return false;
      await done;
      return true;
    },
    export: (token?: string): MockFixtures => fixturesOf(store.data(keyOf(token))),
    inspect: (token?: string): StateView => store.read(keyOf(token)),
  };
}
