/**
 * Stage scenario: the `Prefer` header parsed once (a bad token refuses the request before anything
 * else), then the failure scenarios asked for (`Prefer: fail=`/`delay=`, or the engine's rules): a
 * delay, a dropped connection, a 429/500/503; the other tokens (code=, example=) are kept for the
 * examples stage, and a declared Content-Length over the body limit is refused before the body is read.
 */
import { badPrefer, bodyTooLarge, MAX_BODY_BYTES, parsePrefer } from '../../http/index.ts';
import { failureProblem, type Scenario, scenarioOf, sleep } from '../scenarios.ts';
import type { RawResponse, RequestContext, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

export const tooLarge = (context: RequestContext) => refuseRouted(context, bodyTooLarge(context.problem));

export const scenario: Stage = (context) => {
  const { raw, target } = context;
  const prefer = parsePrefer(raw.header('prefer'));
  // A token with a bad value, scenario or not.
  if (!prefer.ok) return refuseRouted(context, badPrefer(prefer.message, context.problem));
  context.preferences = prefer.preferences;
  const operation = [target.operation.operationId, `${context.method} ${target.operation.path}`];
  const asked = scenarioOf(prefer.preferences, operation, context.core.scenarios);
  // A delay asked for: the rest of the stage after it (synchronous otherwise, no microtask per request).
  if (asked.delay) return sleep(asked.delay).then(() => afterDelay(context, asked));
  return afterDelay(context, asked);
};

function afterDelay(context: RequestContext, { fail, retryAfter = 1 }: Scenario): RawResponse | undefined {
  const { raw } = context;
  // Dropped connection: the adapter closes it.
  if (fail === 'drop') return { status: 0, headers: {}, body: '', version: context.version, drop: true };
  // A failure answered instead of the operation's.
  if (fail !== undefined) return refuseRouted(context, failureProblem(fail, retryAfter, context.problem));
  const length = raw.header('content-length');
  // Declared too large: refused before reading.
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) return tooLarge(context);
  return undefined;
}
