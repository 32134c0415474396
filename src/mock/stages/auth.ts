/**
 * Stage auth and scopes: `Authorization` sent twice → 400 naming it (which token would count is
 * anyone's guess); no bearer token → 401 with `WWW-Authenticate`; a token carrying scopes that lack
 * the operation's → 403 (../scopes.ts).
 */
import { fieldRefusal, unauthorized } from '../../http/index.ts';
import { insufficientScope, requirementsOf } from '../scopes.ts';
import type { Authorized, Incoming, Routed, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

const SECOND_CREDENTIAL = /,\s*(?:bearer|basic|digest|negotiate|token)[ \t]+\S/i;

/** A second credential after a comma (the look only when there is a comma). */
const secondCredential = (authorization: string | undefined): boolean =>
  authorization?.includes(',') === true && SECOND_CREDENTIAL.test(authorization);

export const auth: Stage<Incoming & Routed, Authorized> = {
  name: 'auth',
  run: (context) => {
    // Two Authorization headers: seen by a raw-header adapter, or joined by Fetch's Headers as
    // "Bearer a, Bearer b" (a second credential after a comma; a readable token may hold commas).
    if (context.raw.repeated?.('authorization') || secondCredential(context.authorization)) {
      const message = 'The Authorization header was sent more than once; send one bearer token.';
      return refuseRouted(
        context,
        fieldRefusal('badRequest', { field: 'header.Authorization', rule: 'duplicate', message }, context.problem),
      );
    }
    // No token (or not a bearer one).
    if (!context.token) return refuseRouted(context, unauthorized(context.authorization, true, context.problem));
    const requirements = requirementsOf(context.target.operation.operation.security);
    const lacking = insufficientScope(context.token, requirements, context.problem);
    // A token whose scopes do not cover the operation.
    if (lacking) return refuseRouted(context, lacking);
    return undefined;
  },
};
