/**
 * Stage scenario: the failure scenarios asked for (`Prefer: fail=`/`delay=`, or the engine's rules):
 * a delay, a dropped connection, a 429/500/503; then the other `Prefer` tokens (code=, example=) are
 * parsed, and a declared Content-Length over the body limit is refused before the body is read.
 */
import { badPrefer, bodyTooLarge, MAX_BODY_BYTES, parsePrefer } from '../../http/index.ts';
import { failureProblem, type Scenario, scenarioOf, sleep } from '../scenarios.ts';
import type { RawResponse, RequestContext, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

export const tooLarge = (context: RequestContext) => refuseRouted(context, bodyTooLarge(context.problem));

export const scenario: Stage = (context) => {
  const { raw, target } = context;
  const asked = scenarioOf(
    raw.header('prefer'),
    [target.operation.operationId, `${context.method} ${target.operation.path}`],
    context.core.scenarios,
  );
  // A scenario token with a bad value.
  if (!asked.ok) return refuseRouted(context, badPrefer(asked.message, context.problem));
  const { delay } = asked.scenario;
  // A delay asked for: the rest of the stage after it (synchronous otherwise, no microtask per request).
  if (delay) return sleep(delay).then(() => afterDelay(context, asked.scenario));
  return afterDelay(context, asked.scenario);
};

function afterDelay(context: RequestContext, { fail, retryAfter = 1 }: Scenario): RawResponse | undefined {
  const { raw } = context;
  // Dropped connection: the adapter closes it.
  if (fail === 'drop') return { status: 0, headers: {}, body: '', version: context.version, drop: true };
  // A failure answered instead of the operation's.
  if (fail !== undefined) return refuseRouted(context, failureProblem(fail, retryAfter, context.problem));
  const prefer = parsePrefer(raw.header('prefer'));
  // A bad code= or example= token.
  if (!prefer.ok) return refuseRouted(context, badPrefer(prefer.message, context.problem));
  context.preferences = prefer.preferences;
  const length = raw.header('content-length');
  // Declared too large: refused before reading.
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) return tooLarge(context);
  return undefined;
}
