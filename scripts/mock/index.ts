/**
 * The mock as a module, for `npm start` (scripts/mock.ts), the package bin and the test setup:
 *
 *   const mock = await startMock({ port: 0 });   // → { url, port, versions, close() }
 *   ...
 *   await mock.close();
 */
export {
  type Bundle,
  type BundleOperation,
  DEFAULT_BUNDLES_DIR,
  deref,
  type ExampleListing,
  type Json,
  listExamples,
  loadBundles,
} from '../lib/bundles.ts';
export { VERSION_HEADER } from './router.ts';
export { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SEED, type MockOptions, type MockServer, startMock } from './server.ts';
