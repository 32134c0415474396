/**
 * The static mode of the mock (`--static`, `startMock({ static: true })`): Prism's example mode
 * (@stoplight/prism-http, an optional peer) behind the same routing, CORS, Prefer handling and
 * refusal bodies as the data-backed mock, as a node:http handler. A subsystem of its own beside
 * src/mock: it builds on src/mock's browser-safe entry (router, refusals, problems), and the mock's
 * node server loads it only in static mode (dynamic import), so the data-backed mock never loads
 * Prism. It is also the refusal-parity oracle of the data-backed mock (test/mock/refusals.test.ts).
 */
export { createStaticHandler, type StaticHandler, type StaticOptions } from './handler.ts';
export { normalizeViolation, type PrismViolation } from './refusal.ts';
