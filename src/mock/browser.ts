/**
 * The browser-safe part of the mock (`@store-admin/contract/mock` under the `browser` condition, and
 * what the MSW handlers import): the transport-independent engine and its pieces, with no `node:`
 * module and no Prism anywhere in its import graph. ./index.ts adds the node:http server.
 */

// The HTTP layer (src/http) and the router (src/contract) the engine answers through, kept in the
// mock's public entry where they were; inside the package, import them from there.
export { createRouter, type RouteEntry, type RouteResult, type Router, templateToRegExp } from '../contract/index.ts';
export {
  badPrefer,
  corsHeaders,
  EXPOSED_HEADERS,
  FAILURES,
  type Failure,
  IGNORED_FILTERS_HEADER,
  internalError,
  MAX_BODY_BYTES,
  MAX_DELAY_MS,
  type MockPreferences,
  malformedUrl,
  PROBLEM_TYPES,
  PROBLEMS,
  type Problem,
  type ProblemFields,
  type ProblemKind,
  parsePrefer,
  preflightHeaders,
  problem,
  type Refusal,
  refusal,
  routeRefusal,
  summarize,
  UNKNOWN_QUERY_HEADER,
  unauthorized,
  type Violation,
} from '../http/index.ts';
export { BODY_LIMIT, type LoggedRequest, REQUEST_LOG_SIZE } from './admin/request-log.ts';
export type { StateView } from './collection-state.ts';
export { formatCoverage } from './coverage/format.ts';
export type {
  CoverageReport,
  CoverageShare,
  Dimension as CoverageDimension,
  OperationCoverage,
} from './coverage/report.ts';
export {
  createMockEngine,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SEED,
  type MockEngine,
  type MockEngineOptions,
  type RawRequest,
  type RawResponse,
  RESET_PATH,
} from './engine.ts';
export { DEFAULT_LIMITS, MAX_TOKEN_STATES, type MockLimits } from './limits.ts';
export { type CollectionView, describeModel, SEEDED_COUNTS } from './model/describe.ts';
export {
  type FixtureCollection,
  FixtureError,
  type MockFixtures,
} from './model/fixtures.ts';
export { ASSIGNMENT_STATUS } from './model/fulfillment-orders.ts';
export { type AnyRecord, generateStore, type Rec, type StoreData } from './model/index.ts';
export { decodeCursor, encodeCursor } from './pagination.ts';
export type { Entry as StateEntry } from './persistence/entries.ts';
export { OPERATION_DECLS } from './resources.ts';
export { type Scenario, scenarioFromFlag } from './scenarios.ts';
export { type ScopeRequirements, scopesOfToken, type TokenScopes } from './scopes.ts';
export type { SnapshotOptions } from './tokens/api.ts';
export type { Persistence, SnapshotInfo } from './tokens/held.ts';
