/**
 * The last step, answer: a write's changes are committed to the caller's state through its ticket
 * (./ticket.ts; refused with 409 if a reset or restore of that state came while it was in flight,
 * 410 if the state was evicted with no state file), and answered once the state file has them (503
 * if it cannot be written); then the viewed body is sent with the version served (and, for a list,
 * the filters it did not apply).
 */

import type { Ticket } from '../tokens/held.ts';
import { resetConflict, stateEvicted, stateFileFailed } from '../tokens/refusals.ts';
import type { Last, RawResponse, RequestContext, StoreResult } from './context.ts';
import { json, refuseRouted } from './respond.ts';

export const answer: Last<RequestContext> = (context) => {
  const result = context.result;
  const headers = result.kind === 'list' ? { ...context.served, ...result.headers } : context.served;
  // A read: answered at once (no microtask).
  if (result.kind !== 'write') return json(200, context.shown, headers, context.version);
  // The ticket stage opened one for every write.
  return commit(context, context.ticket as Ticket, result, headers);
};

function commit(
  context: RequestContext,
  ticket: Ticket,
  result: Extract<StoreResult, { kind: 'write' }>,
  headers: Record<string, string>,
): RawResponse | Promise<RawResponse> {
  const { states } = context.core;
  const committed = states.commit(ticket, result.changes);
  // A reset or restore of this state came first: the write is not applied.
  if (committed === 'conflict') return refuseRouted(context, resetConflict(context.problem));
  // Evicted (no state file): the write has no state to land in.
  if (committed === 'evicted') return refuseRouted(context, stateEvicted(states.limits.maxStates, context.problem));
  // In memory only: answered at once.
  if (committed === 'applied') return json(200, context.shown, headers, context.version);
  return committed.then(
    () => json(200, context.shown, headers, context.version),
    // Applied in memory, but the state file could not be written.
    (error: unknown) => refuseRouted(context, stateFileFailed(error, context.problem)),
  );
}
