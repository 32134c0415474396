/**
 * Stage scenario: the failure scenarios asked for (`Prefer: fail=`/`delay=`, or the engine's rules):
 * a delay, a dropped connection, a 429/500/503; then the other `Prefer` tokens (code=, example=) are
 * parsed, and a declared Content-Length over the body limit is refused before the body is read.
 */
import { MAX_BODY_BYTES } from '../limits.ts';
import { parsePrefer } from '../prefer.ts';
import { fieldRefusal } from '../problems.ts';
import { badPrefer } from '../refusals.ts';
import { failureProblem, scenarioOf, sleep } from '../scenarios.ts';
import type { RequestContext, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

export const tooLarge = (context: RequestContext) =>
  refuseRouted(
    context,
    fieldRefusal(
      'tooLarge',
      'body',
      'maxBytes',
      `The mock accepts bodies up to ${MAX_BODY_BYTES} bytes.`,
      context.problem,
    ),
  );

export const scenario: Stage = async (context) => {
  const { raw, target } = context;
  const asked = scenarioOf(
    raw.header('prefer'),
    [target.operation.operationId, `${context.method} ${target.operation.path}`],
    context.core.scenarios,
  );
  // A scenario token with a bad value.
  if (!asked.ok) return refuseRouted(context, badPrefer(asked.message, context.problem));
  const { fail, delay, retryAfter = 1 } = asked.scenario;
  if (delay) await sleep(delay);
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
};
