/**
 * @store-admin/contract: a thin typed client of the store admin API over openapi-fetch.
 *
 *   const client = createAdminClient({ baseUrl, token });
 *   const { data } = await client.GET('/subscriptions/', { params: { query: { status: ['active'] } } });
 *   for await (const subscription of paginate(client, '/subscriptions/')) …
 *   const old = client.withVersion('2023-02-10');
 */

export type { Middleware } from 'openapi-fetch';
export { type ApiVersion, OPERATIONS, VERSION_HEADER, VERSIONS } from '../contract/index.ts';
export { type AdminClientOptions, createAdminClient } from './client.ts';
export {
  AdminApiError,
  AdminClientError,
  type AdminClientErrorCode,
  type AdminClientErrorDetails,
  unwrap,
} from './errors.ts';
export { MAX_RESPONSE_BYTES } from './guard.ts';
// The per-version type namespaces (`V2024_04_01`…), written by the build from the contract's versions.
export type * from './namespaces.generated.ts';
export {
  cursorOf,
  type ItemOf,
  type ListPath,
  MAX_PAGES,
  type PageOf,
  type PaginateOptions,
  type Paginator,
  paginate,
} from './paginate.ts';
export { DEFAULT_TIMEOUT, type RequestExtras, type RetryEvent, type RetryOptions, retryAfterMs } from './retry.ts';
export type {
  AdminClient,
  AdminMethod,
  AdminPaths,
  AdminVersionPaths,
  CallOptions,
  InitOf,
  ResponseData,
  Result,
} from './types.ts';
