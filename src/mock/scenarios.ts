/**
 * Failure scenarios on demand, so a UI can be built for the unhappy paths: a 429 with Retry-After,
 * a 503, a 500, a slow answer, a dropped connection. These statuses and bodies are the mock's, not
 * the platform's (spec §7 and §8 show no error codes, bodies or rate limits); the bodies keep the
 * mock's problem-details shape.
 *
 * Per request, with `Prefer` tokens (as Prism's `code=`):
 *   Prefer: fail=429            429 Too Many Requests, Retry-After: 1 (retry-after=N to change it)
 *   Prefer: fail=503 | fail=500 503 Service Unavailable (with Retry-After) | 500 Internal Server Error
 *   Prefer: fail=drop           the connection is dropped without an answer (a network error)
 *   Prefer: delay=1500          the answer (or the failure) comes after 1500 ms (at most 60000)
 * Per mock, with rules (`scenarios` option, `--fail`/`--delay` flags), optionally for one operation
 * (its operationId or `METHOD /path/`); a request's own tokens win over the rules.
 */
import { FAILURES, type Failure, MAX_DELAY_MS, parseFailure, type Refusal, refusal } from '../http/index.ts';

export interface Scenario {
  /** Only for this operation: its operationId (`listSubscriptions`) or `METHOD /path/`. Default: all. */
  operation?: string;
  fail?: Failure;
  /** Milliseconds before the answer. */
  delay?: number;
  /** Seconds in `Retry-After` of a 429 or 503. Default 1. */
  retryAfter?: number;
}

/**
 * The scenario of a request: the rules matching the operation (its operationId or `METHOD /path/`),
 * then the request's own tokens over them (`asked`, parsed from its `Prefer` header by src/http/prefer.ts).
 */
export function scenarioOf(asked: Scenario, operation: readonly string[], rules: readonly Scenario[]): Scenario {
  const scenario: Scenario = {};
  for (const rule of rules) {
    if (rule.operation === undefined || operation.includes(rule.operation)) Object.assign(scenario, rule);
  }
  if (asked.fail !== undefined) scenario.fail = asked.fail;
  if (asked.delay !== undefined) scenario.delay = asked.delay;
  if (asked.retryAfter !== undefined) scenario.retryAfter = asked.retryAfter;
  return scenario;
}

/** The problem body and headers a failure scenario answers instead of the engine's (not for `drop`). */
export function failureProblem(
  fail: Exclude<Failure, 'drop'>,
  retryAfter: number,
  context: { operation: string; version: string },
): Refusal & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (fail !== 500) headers['Retry-After'] = String(retryAfter);
  const detail =
    `Mock failure scenario for ${context.operation} (asked by Prefer: fail=${fail} or a --fail rule); ` +
    'the platform does not show its error answers.';
  return { ...refusal(`scenario${fail}`, detail, [], { ...context, scenario: `fail=${fail}` }), headers };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A rule from a command-line flag: `--fail 429`, `--fail 503:listSubscriptions`, `--delay 300`,
 * `--delay 1500:getTicket` (the part after the first `:` names the operation). Throws a message
 * naming the flag and the rule on a bad value.
 */
export function scenarioFromFlag(flag: 'fail' | 'delay', text: string): Scenario {
  const colon = text.indexOf(':');
  const value = colon === -1 ? text : text.slice(0, colon);
  const operation = colon === -1 ? undefined : text.slice(colon + 1).trim();
  if (operation === '') throw new Error(`--${flag} ${text}: name an operation after ":" (e.g. listSubscriptions)`);
  const scenario: Scenario = operation === undefined ? {} : { operation };
  if (flag === 'fail') {
    const fail = parseFailure(value);
    if (fail === undefined)
      throw new Error(`--fail ${text}: use one of ${FAILURES.join(', ')}, optionally :operationId`);
    return { ...scenario, fail };
  }
  if (!/^\d+$/.test(value) || Number(value) > MAX_DELAY_MS) {
    throw new Error(`--delay ${text}: milliseconds from 0 to ${MAX_DELAY_MS}, optionally :operationId`);
  }
  return { ...scenario, delay: Number(value) };
}
