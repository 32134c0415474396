/**
 * The HTTP layer under every server of the package: the mock's engine and node server (src/mock),
 * `--static` (src/static), the proxy (src/proxy) and the MSW handlers (src/msw) answer through it.
 * It holds what HTTP is the same for all of them: the problem bodies and their catalogue, the
 * refusals of routing, auth and Prefer, CORS, the request target, the JSON media type, the body
 * reader (with its size bound), the Prefer header, and a node server's timeouts and `listen`.
 * Loadable in a browser: only types come from node: (the MSW handlers import it through src/mock).
 */
export { type Answer, bodyText, problemAnswer, TurnEnds, writeAnswer } from './answer.ts';
export { announcesBody, type BodyBudget, BusyError, MAX_BODY_BYTES, readNodeBody } from './body.ts';
export {
  type FieldRule,
  fieldRefusal,
  internalError,
  methodNotAllowed,
  PROBLEMS,
  type Problem,
  type ProblemKind,
  type Refusal,
  refusal,
} from './catalogue.ts';
export {
  ALLOWED_HEADERS,
  ALLOWED_METHODS,
  corsHeaders,
  EXPOSED_HEADERS,
  IGNORED_FILTERS_HEADER,
  preflightHeaders,
  UNKNOWN_QUERY_HEADER,
  VIOLATIONS_HEADER,
} from './cors.ts';
export { answerClientError, DEFAULT_TIMEOUTS, listen, type ServerTimeouts, serverOptionsOf } from './listen.ts';
export { isJsonMediaType } from './media.ts';
export {
  FAILURES,
  type Failure,
  MAX_DELAY_MS,
  type MockPreferences,
  type PreferResult,
  parseFailure,
  parsePrefer,
} from './prefer.ts';
export { PROBLEM_TYPES, type ProblemFields, problem, type Violation } from './problem.ts';
export {
  badPrefer,
  bodyTooLarge,
  malformedJson,
  malformedUrl,
  routeRefusal,
  summarize,
  unauthorized,
  unsupportedMediaType,
} from './refusals.ts';
export { boundedText, type Oversize } from './response-text.ts';
export { isDecodablePath, parseTarget } from './target.ts';
