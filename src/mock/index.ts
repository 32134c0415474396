/**
 * The mock server of the store admin API, as a module (`@store-admin/contract/mock`), for
 * `npm start`, the package bin and test setups:
 *
 *   const mock = await startMock({ port: 0 });   // → { url, port, versions, close() }
 *   ...
 *   await mock.close();
 *
 * Refusals are RFC 9457 problem bodies naming each field and rule (./errors.ts); the request's
 * version is picked by the version header (./router.ts).
 */
export { PROBLEM_TYPES, type Problem, problem } from './errors.ts';
export { createRouter, type RouteEntry, type RouteResult, type Router, templateToRegExp } from './router.ts';
export { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SEED, type MockOptions, type MockServer, startMock } from './server.ts';
