/**
 * The browser-safe part of the mock (`@store-admin/contract/mock` under the `browser` condition, and
 * what the MSW handlers import): the transport-independent engine and its pieces, with no `node:`
 * module and no Prism anywhere in its import graph. ./index.ts adds the node:http server.
 */

export { BODY_LIMIT, type LoggedRequest, REQUEST_LOG_SIZE } from './admin/request-log.ts';
export {
  createMockEngine,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SEED,
  type FixtureCollection,
  FixtureError,
  IGNORED_FILTERS_HEADER,
  MAX_BODY_BYTES,
  type MockEngine,
  type MockEngineOptions,
  type MockFixtures,
  type RawRequest,
  type RawResponse,
  RESET_PATH,
} from './engine.ts';
export { PROBLEM_TYPES, type Problem, problem } from './errors.ts';
export { decodeCursor, encodeCursor } from './pagination.ts';
export type { Entry as StateEntry } from './persistence/entries.ts';
export { ASSIGNMENT_STATUS, OPERATION_DECLS } from './resources.ts';
export { createRouter, type RouteEntry, type RouteResult, type Router, templateToRegExp } from './router.ts';
export {
  FAILURES,
  type Failure,
  MAX_DELAY_MS,
  type Scenario,
  scenarioFromFlag,
} from './scenarios.ts';
export { type ScopeRequirements, scopesOfToken } from './scopes.ts';
export { counts as SEEDED_COUNTS, generateStore, type Rec, type StoreData } from './seed.ts';
export { MAX_STATE_BYTES, MAX_TOKEN_STATES } from './tokens/registry.ts';
export type { Persistence, SnapshotInfo } from './tokens/store.ts';
