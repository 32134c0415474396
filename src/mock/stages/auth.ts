/**
 * Stage auth and scopes: no bearer token → 401 with `WWW-Authenticate`; a token carrying scopes that
 * lack the operation's → 403 (../scopes.ts).
 */
import { unauthorized } from '../refusals.ts';
import { insufficientScope, requirementsOf } from '../scopes.ts';
import type { Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

export const auth: Stage = (context) => {
  // No token (or not a bearer one).
  if (!context.token) return refuseRouted(context, unauthorized(context.authorization, true, context.problem));
  const requirements = requirementsOf(context.target.operation.operation.security);
  const lacking = insufficientScope(context.token, requirements, context.problem);
  // A token whose scopes do not cover the operation.
  if (lacking) return refuseRouted(context, lacking);
  return undefined;
};
