/**
 * Stage ticket: a write opens its ticket on the caller's state here, the one place, when it arrives
 * (before any delay or body read), so that a reset or restore meanwhile cancels it (409 at commit,
 * ./answer.ts); ./intake.ts closes it once answered.
 */
import type { Authorized, Incoming, Routed, Stage, Ticketed } from './context.ts';

export const ticket: Stage<Incoming & Routed & Authorized, Ticketed> = {
  name: 'ticket',
  run: (context) => {
    if (context.target.decl.kind === 'write') context.ticket = context.core.states.begin(context.token);
    return undefined;
  },
};
