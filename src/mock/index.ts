/**
 * The mock of the store admin API, as a module (`@store-admin/contract/mock`):
 *
 *   const mock = await startMock({ port: 0 });      // node:http → { url, port, reset(), close() }
 *   const engine = createMockEngine({ bundles });   // any runtime → { handle(Request), reset() }
 *
 * The engine (./engine.ts) serves a seeded, stateful store declared as data (./model);
 * `startMock({ static: true })` keeps Prism's example mode (src/static). Refusals are RFC 9457
 * problem bodies naming each field and rule (./errors.ts). docs/mock.md is the user documentation.
 */

// For the proxy (src/proxy): the per-operation request validators, the catalogue's refusals, the
// route refusals, the CORS headers and the body reader, so that it judges and answers as the mock does.
export { exposesAdmin } from './admin/guard.ts';
export * from './browser.ts';
export { corsHeaders, preflightHeaders } from './cors.ts';
export { readNodeBody } from './node-body.ts';
export { StateFileError } from './persistence/state-file-error.ts';
export { type Refusal, refusal } from './problems.ts';
export { routeRefusal, summarize } from './refusals.ts';
export {
  answerClientError,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_TIMEOUTS,
  listen,
  type MockOptions,
  type MockServer,
  type MockTimeouts,
  openStateFile,
  readFixtures,
  serverOptionsOf,
  startMock,
} from './server.ts';
export { parseTarget } from './stages/route.ts';
export { type OperationValidator, validatorsOf } from './validate.ts';
