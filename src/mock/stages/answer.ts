/**
 * Stage answer: a write's changes are committed to the caller's state (its own copy, made on its
 * first write), then the viewed body is sent with the version served (and, for a list, the filters
 * it did not apply).
 */
import type { RawResponse, RequestContext } from './context.ts';
import { json } from './respond.ts';

export function answer(context: RequestContext): RawResponse {
  const result = context.result;
  if (result?.kind === 'write') {
    context.core.states.write(context.token).commit(result.changes);
  }
  const headers = result?.kind === 'list' ? { ...context.served, ...result.headers } : context.served;
  return json(200, context.shown, headers, context.version);
}
