/**
 * Stage state: a token whose state was evicted with no state file to reload it from is refused
 * (410, until it is reset), never answered from the seeded data as if nothing had happened.
 */
import { stateEvicted } from '../tokens/refusals.ts';
import type { Authorized, Incoming, Routed, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

export const tokenState: Stage<Incoming & Routed & Authorized> = {
  name: 'state',
  run: (context) => {
    const { states } = context.core;
    // Evicted, not reloadable: its writes are gone.
    if (states.evicted(context.token))
      return refuseRouted(context, stateEvicted(states.limits.maxStates, context.problem));
    return undefined;
  },
};
