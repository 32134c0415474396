/**
 * The browser build of `@store-admin/contract/msw` (the `browser` export condition): the same API
 * as ./index.ts, with the version bundles carried as JSON imports instead of read from disk.
 *
 *   const worker = setupWorker(...createHandlers({ baseUrl: `${location.origin}/api` }));
 */
import { BUNDLES } from './bundles.generated.ts';
import { type HandlersOptions, handlersFrom, type MockHandlers } from './handlers.ts';

export type { HandlersOptions, MockHandlers } from './handlers.ts';
export { type Override, type OverrideArgs, type OverrideResolver, override, type PathsWith } from './overrides.ts';

/** MSW handlers for `baseUrl`, over the bundles built into this module. */
export function createHandlers(options: HandlersOptions): MockHandlers {
  return handlersFrom(BUNDLES, options);
}
