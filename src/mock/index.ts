/**
 * The mock of the store admin API, as a module (`@store-admin/contract/mock`):
 *
 *   const mock = await startMock({ port: 0 });      // node:http → { url, port, reset(), close() }
 *   const engine = createMockEngine({ bundles });   // any runtime → { handle(Request), reset() }
 *
 * The engine (./engine.ts) serves a seeded, stateful store (./seed.ts) declared as data
 * (./resources.ts); `startMock({ static: true })` keeps Prism's example mode. Refusals are RFC 9457
 * problem bodies naming each field and rule (./errors.ts). docs/mock.md is the user documentation.
 */
export {
  createMockEngine,
  DEFAULT_PAGE_SIZE,
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
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SEED,
  type MockOptions,
  type MockServer,
  readFixtures,
  startMock,
} from './server.ts';
