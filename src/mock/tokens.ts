/**
 * The per-token states of one engine: a token's state is created (as a copy-on-write clone of the
 * seeded state, ./state.ts) on its first write; reads of a token without a state see the seed. At
 * most MAX_TOKEN_STATES are kept (the oldest is dropped); `sharedState` gives every token one.
 */
import { MAX_TOKEN_STATES } from './limits.ts';
import type { State } from './state.ts';

export interface TokenStates {
  read(token: string): State;
  write(token: string): State;
  /** Back to the seed: one token's state, or every state. */
  reset(token?: string): void;
  /** The state a token sees (the seed's, the shared one, or none: the seed). */
  seen(token?: string): State;
  readonly shared: boolean;
}

export function createTokenStates(seed: State, sharedState: boolean, maxStates = MAX_TOKEN_STATES): TokenStates {
  let shared = sharedState ? seed.clone() : undefined;
  const states = new Map<string, State>();
  const read = (token: string) => shared ?? states.get(token) ?? seed;
  return {
    read,
    write(token) {
      if (shared) return shared;
      let state = states.get(token);
      if (!state) {
        if (states.size >= maxStates) states.delete(states.keys().next().value as string);
        state = seed.clone();
        states.set(token, state);
      }
      return state;
    },
    reset(token) {
      if (sharedState) shared = seed.clone();
      else if (token === undefined) states.clear();
      else states.delete(token);
    },
    seen: (token) => (token === undefined ? (shared ?? seed) : read(token)),
    shared: sharedState,
  };
}
