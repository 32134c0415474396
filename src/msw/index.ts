/**
 * The mock without a server: MSW request handlers (`@store-admin/contract/msw`) backed by the same
 * engine as `npm start`, for tests in Node (`msw/node`) and apps in the browser (`setupWorker`;
 * the package's `browser` condition resolves ./browser.ts, which carries the bundles), with typed
 * per-operation overrides. msw 2.x is an optional peer.
 *
 *   const server = setupServer(...createHandlers({ baseUrl: 'http://localhost/api' }));
 */
import { loadBundles } from '../contract/index.ts';
import { type HandlersOptions, handlersFrom, type MockHandlers } from './handlers.ts';

export type { HandlersOptions, MockHandlers } from './handlers.ts';
export { type Override, type OverrideArgs, type OverrideResolver, override, type PathsWith } from './overrides.ts';

/** MSW handlers for `baseUrl`, over the package's bundles (read from disk in Node). */
export function createHandlers(options: HandlersOptions): MockHandlers {
  return handlersFrom(loadBundles(), options);
}
