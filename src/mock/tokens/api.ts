/**
 * The engine's state methods in code (`engine.reset`, `snapshot`, `restore`, `fork`, `export`),
 * over the token store: a token names its state; without one, the shared state with `sharedState`,
 * else every state (reset, snapshot, restore) or the seeded data (export, a global snapshot).
 */

import type { StateView } from '../collection-state.ts';
import { fixturesOf, type MockFixtures } from '../model/fixtures.ts';
import type { StoreData } from '../model/index.ts';
import { SHARED_KEY } from '../persistence/entries.ts';
import { randomHex } from './globals.ts';
import type { SnapshotInfo } from './held.ts';
import { snapshotNameProblem } from './names.ts';
import type { TokenStore } from './token-states.ts';

/** `global: true` saves a global snapshot, owned by no state, that any token can fork (docs/mock.md "Forks"). */
export interface SnapshotOptions {
  global?: boolean;
}

/** A token no client sent: `fork-` and 128 random bits (forks made without a token of their own). */
export function newForkToken(): string {
  return `fork-${randomHex(16)}`;
}

export function stateApi(store: TokenStore) {
  const every = (token: string | undefined) => token === undefined && !store.shared;
  const keyOf = (token: string | undefined) => (token === undefined ? SHARED_KEY : store.keyOf(token));

  function snapshot(): StoreData;
  function snapshot(name: string, token?: string, options?: SnapshotOptions): Promise<SnapshotInfo[]>;
  function snapshot(name?: string, token?: string, options?: SnapshotOptions): StoreData | Promise<SnapshotInfo[]> {
    if (name === undefined) return structuredClone(store.data(SHARED_KEY)); // the deprecated form
    if (options?.global) return publish(name, keyOf(token));
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

  function publish(name: string, key: string): Promise<SnapshotInfo[]> {
    const problem = snapshotNameProblem(name);
    if (problem) return Promise.reject(new RangeError(problem));
    const taken = store.publish(name, key);
    if (taken === 'full') {
      const message = `${store.maxSnapshots} global snapshots already (maxSnapshots): delete one first`;
      return Promise.reject(new RangeError(message));
    }
    return taken.durable.then(() => [taken.info]);
  }

  /** Makes a token's state (a new token when omitted) a fork of global snapshot `name`; resolves to the token. */
  async function fork(name: string, token: string = newForkToken()): Promise<string> {
    if (store.shared) throw new RangeError('forks need one state per token: the engine runs with sharedState');
    const done = store.fork(name, token);
    if (!done) throw new RangeError(`No global snapshot named "${name}" (snapshot(name, token, { global: true }))`);
    await done;
    return token;
  }

  return {
    fork,
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
