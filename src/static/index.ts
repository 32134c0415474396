/**
 * The static mode of the mock (`--static`, `startMock({ static: true })`): Prism's example mode
 * (@stoplight/prism-http, an optional peer) as a thin adapter behind the package's HTTP layer
 * (src/http: target, body, CORS, Prefer, the one problem catalogue) and the contract's router, so it
 * routes and refuses as the data-backed mock does. It imports nothing of src/mock; the mock's node
 * server loads it only in static mode (dynamic import) and writes its answers, so the data-backed
 * mock never loads Prism. It is also the refusal-parity oracle of the data-backed mock (test/mock/refusals.test.ts).
 */
export { createStaticHandler, type StaticAnswer, type StaticHandler, type StaticOptions } from './handler.ts';
export type { PrismViolation } from './prism.ts';
export { normalizeViolation } from './refusal.ts';
