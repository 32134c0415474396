/**
 * The browser-safe part of the mock (`@store-admin/contract/mock` under the `browser` condition, and
 * what the MSW handlers import): the transport-independent engine and its pieces, with no `node:`
 * module and no Prism anywhere in its import graph. ./index.ts adds the node:http server.
 */
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
export { internalError, PROBLEM_TYPES, type Problem, problem } from './errors.ts';
export { decodeCursor, encodeCursor } from './pagination.ts';
export { ASSIGNMENT_STATUS, OPERATION_DECLS } from './resources.ts';
export { createRouter, type RouteEntry, type RouteResult, type Router, templateToRegExp } from './router.ts';
export {
  FAILURES,
  type Failure,
  MAX_DELAY_MS,
  type Scenario,
  scenarioFromFlag,
} from './scenarios.ts';
export { type ScopeRequirements, scopesOfToken, type TokenScopes } from './scopes.ts';
export { counts as SEEDED_COUNTS, generateStore, type Rec, type StoreData } from './seed.ts';
