/**
 * The mock without a server: MSW request handlers (`@store-admin/contract/msw`) backed by the same
 * engine as `npm start`, for tests in Node (`msw/node`) and apps in the browser (`setupWorker`),
 * with typed per-operation overrides. msw 2.x is an optional peer.
 */
export { type Override, type OverrideArgs, type OverrideResolver, override, type PathsWith } from './overrides.ts';
