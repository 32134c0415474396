/**
 * paginate(client, path, init): every item of every page of a cursor-paginated list, following
 * the `cursor` query value of each page's `next` URL until `next` (or its cursor) is null or
 * absent. A cursor seen before stops the walk with an error instead of looping. Each page that
 * is not a 2xx response throws an AdminApiError.
 */

import type { MaybeOptionalInit } from 'openapi-fetch';
import { unwrap } from './errors.ts';
import type { RequestExtras } from './retry.ts';
import type { AdminClient, InitParam, PathsWithMethod, ResponseData } from './types.ts';

/** The GET paths whose response is a page envelope (`results`, `next`). */
export type ListPath<Paths> = {
  [P in PathsWithMethod<Paths, 'get'>]: ResponseData<Paths, P> extends { results: unknown; next?: unknown } ? P : never;
}[PathsWithMethod<Paths, 'get'>];

/** One page of `path`. */
export type PageOf<Paths, P> = ResponseData<Paths, P>;
/** One item of the pages of `path`. */
export type ItemOf<Paths, P> =
  PageOf<Paths, P> extends { results: infer R } ? (NonNullable<R> extends readonly (infer I)[] ? I : never) : never;

type ListInit<Paths, P> = P extends keyof Paths
  ? 'get' extends keyof Paths[P]
    ? MaybeOptionalInit<Paths[P], 'get'> & RequestExtras
    : never
  : never;

export interface Paginator<Item, Page> extends AsyncIterable<Item> {
  /** The whole pages, one after another. */
  pages(): AsyncIterableIterator<Page>;
}

/** The `cursor` query value of a `next` URL (absolute or relative), or undefined. */
export function cursorOf(next: unknown): string | undefined {
  if (typeof next !== 'string' || !next) return undefined;
  return new URL(next, 'http://x').searchParams.get('cursor') ?? undefined;
}

export function paginate<Paths, P extends ListPath<Paths>>(
  client: AdminClient<Paths>,
  path: P,
  ...[init]: InitParam<ListInit<Paths, P>>
): Paginator<ItemOf<Paths, P>, PageOf<Paths, P>> {
  type Init = { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;
  const base = (init ?? {}) as Init;
  const get = client.GET as unknown as (
    path: string,
    init: Init,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  async function* pages(): AsyncIterableIterator<PageOf<Paths, P>> {
    let cursor = base.params?.query?.cursor as string | undefined;
    const seen = new Set<string>(cursor === undefined ? [] : [cursor]);
    for (let page = 1; ; page++) {
      const query = cursor === undefined ? base.params?.query : { ...base.params?.query, cursor };
      const data = unwrap(await get(path as string, { ...base, params: { ...base.params, query } })) as {
        next?: unknown;
      };
      yield data as PageOf<Paths, P>;
      cursor = cursorOf(data?.next);
      if (cursor === undefined) return;
      if (seen.has(cursor)) {
        throw new Error(
          `paginate ${String(path)}: page ${page} points to cursor "${cursor}" again; stopping instead of looping`,
        );
      }
      seen.add(cursor);
    }
  }

  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) {
        const results = (page as { results?: unknown }).results;
        if (Array.isArray(results)) yield* results as ItemOf<Paths, P>[];
      }
    },
  };
}
