/**
 * The mock of the store admin API, as a module (`@store-admin/contract/mock`):
 *
 *   const mock = await startMock({ port: 0 });      // node:http → { url, port, reset(), close() }
 *   const engine = createMockEngine({ bundles });   // any runtime → { handle(Request), reset() }
 *
 * The engine (./engine.ts) serves a seeded, stateful store declared as data (./model);
 * `startMock({ static: true })` keeps Prism's example mode (src/static). Refusals are RFC 9457
 * problem bodies naming each field and rule (src/http/problem.ts). docs/mock.md is the user
 * documentation.
 */

// The node side of the HTTP layer (src/http), kept in the mock's public entry where it was.
export {
  answerClientError,
  DEFAULT_TIMEOUTS,
  listen,
  parseTarget,
  readNodeBody,
  type ServerTimeouts as MockTimeouts,
  serverOptionsOf,
} from '../http/index.ts';
export { type OperationValidator, validatorsOf } from '../validation/index.ts';
export { exposesAdmin } from './admin/guard.ts';
export * from './browser.ts';
export { StateFileError } from './persistence/state-file-error.ts';
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type MockOptions,
  type MockServer,
  openStateFile,
  readFixtures,
  startMock,
} from './server.ts';
