/**
 * Stage scenario: the `Prefer` header parsed once (a bad token refuses the request before anything
 * else), then the failure scenarios asked for (`Prefer: fail=`/`delay=`, or the engine's rules): a
 * delay, a dropped connection, a 429/500/503; the other tokens (code=, example=) are kept for the
 * examples stage.
 */
import { badPrefer, type PreferResult, parsePrefer } from '../../http/index.ts';
import { failureProblem, type Scenario, scenarioOf, sleep } from '../scenarios.ts';
import type { Incoming, Preferred, RawResponse, Routed, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

const NO_NAMES: readonly string[] = [];
/** No Prefer header (most requests): one result, nothing parsed nor made. Frozen: nothing writes preferences. */
const NOTHING_PREFERRED: PreferResult = Object.freeze({ ok: true, preferences: Object.freeze({}) });

export const scenario: Stage<Incoming & Routed, Preferred> = {
  name: 'scenario',
  run: (context) => {
    const { raw, target } = context;
    const header = raw.header('prefer');
    const prefer = header ? parsePrefer(header) : NOTHING_PREFERRED;
    // A token with a bad value, scenario or not.
    if (!prefer.ok) return refuseRouted(context, badPrefer(prefer.message, context.problem));
    context.preferences = prefer.preferences;
    const rules = context.core.scenarios;
    // The names a rule may give the operation by, made only when there are rules to match.
    const operation =
      rules.length === 0 ? NO_NAMES : [target.operation.operationId, `${context.method} ${target.operation.path}`];
    const asked = scenarioOf(prefer.preferences, operation, rules);
    context.scenario = asked;
    // A delay asked for: the rest of the stage after it (synchronous otherwise, no microtask per request).
    if (asked.delay) return sleep(asked.delay).then(() => afterDelay(context, asked));
    return afterDelay(context, asked);
  },
};

function afterDelay(context: Routed, { fail, retryAfter = 1 }: Scenario): RawResponse | undefined {
  // Dropped connection: the adapter closes it.
  if (fail === 'drop') return { status: 0, headers: {}, body: '', kind: 'api', version: context.version, drop: true };
  // A failure answered instead of the operation's.
  if (fail !== undefined) return refuseRouted(context, failureProblem(fail, retryAfter, context.problem));
  return undefined;
}
