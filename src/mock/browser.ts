/**
 * The browser-safe part of the mock (`@store-admin/contract/mock` under the `browser` condition, and
 * what the MSW handlers import): the transport-independent engine and its pieces, with no `node:`
 * module and no Prism anywhere in its import graph. ./index.ts adds the node:http server.
 */

export { BODY_LIMIT, type LoggedRequest, REQUEST_LOG_SIZE } from './admin/request-log.ts';
// The HTTP conventions the static mode (src/static) shares with the engine: CORS, Prefer, the
// refusal bodies of routing, auth and Prefer.
export { corsHeaders, EXPOSED_HEADERS, preflightHeaders } from './cors.ts';
export {
  createMockEngine,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SEED,
  IGNORED_FILTERS_HEADER,
  MAX_BODY_BYTES,
  type MockEngine,
  type MockEngineOptions,
  type RawRequest,
  type RawResponse,
  RESET_PATH,
  UNKNOWN_QUERY_HEADER,
} from './engine.ts';
export type { Violation } from './errors.ts';
export { PROBLEM_TYPES, type Problem, problem } from './errors.ts';
export { DEFAULT_LIMITS, MAX_TOKEN_STATES, type MockLimits } from './limits.ts';
export { type CollectionView, describeModel, SEEDED_COUNTS } from './model/describe.ts';
export {
  type FixtureCollection,
  FixtureError,
  type MockFixtures,
} from './model/fixtures.ts';
export { ASSIGNMENT_STATUS } from './model/fulfillment-orders.ts';
export { type Rec, type StoreData, seedStore as generateStore } from './model/index.ts';
export { decodeCursor, encodeCursor } from './pagination.ts';
export type { Entry as StateEntry } from './persistence/entries.ts';
export { type MockPreferences, parsePrefer } from './prefer.ts';
export { internalError, PROBLEMS, type ProblemKind } from './problems.ts';
export { badPrefer, malformedUrl, type Refusal, routeRefusal, summarize, unauthorized } from './refusals.ts';
export { OPERATION_DECLS } from './resources.ts';
export { createRouter, type RouteEntry, type RouteResult, type Router, templateToRegExp } from './router.ts';
export {
  FAILURES,
  type Failure,
  MAX_DELAY_MS,
  type Scenario,
  scenarioFromFlag,
} from './scenarios.ts';
export { type ScopeRequirements, scopesOfToken, type TokenScopes } from './scopes.ts';
export type { StateView } from './state.ts';
export type { Persistence, SnapshotInfo } from './tokens/store.ts';
