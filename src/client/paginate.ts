/**
 * paginate(client, path, init): every item of every page of a cursor-paginated list, following
 * the `cursor` query value of each page's `next` URL until `next` (or its cursor) is null or
 * absent. Only the cursor of `next` is used: the pages are always asked of the client's own
 * `baseUrl` and path. A cursor seen before, or more than `maxPages` pages (default 1000), stops
 * the walk with an AdminClientError instead of looping. Each page that is not a 2xx response
 * throws an AdminApiError.
 */

import { AdminClientError, unwrap } from './errors.ts';
import type { AdminClient, InitArgs, KnownPath, OperationOf, PathsWithMethod, ResponseData } from './types.ts';

/** Default of `maxPages`. */
export const MAX_PAGES = 1000;

/** The GET paths whose response is a page envelope (`results`, `next`). */
export type ListPath<Paths> = {
  [P in PathsWithMethod<Paths, 'get'>]: 'results' extends keyof ResponseData<Paths, P> ? P : never;
}[PathsWithMethod<Paths, 'get'>];

/** One page of `path`. */
export type PageOf<Paths, P> = ResponseData<Paths, P>;
/** One item of the pages of `path`. */
export type ItemOf<Paths, P> =
  PageOf<Paths, P> extends { results?: infer R }
    ? NonNullable<R> extends readonly unknown[]
      ? NonNullable<R>[number]
      : never
    : never;

/** Options of paginate, next to the list operation's `params` and the call options. */
export interface PaginateOptions {
  /** Most pages read (default 1000); one more rejects with an AdminClientError `too-many-pages`. */
  maxPages?: number;
}

export interface Paginator<Item, Page> extends AsyncIterable<Item> {
  /** The whole pages, one after another. */
  pages(): AsyncIterableIterator<Page>;
}

/** The `cursor` query value of a `next` URL (absolute or relative), or undefined. */
export function cursorOf(next: unknown): string | undefined {
  if (typeof next !== 'string' || !next) return undefined;
  try {
    return new URL(next, 'http://x').searchParams.get('cursor') ?? undefined;
  } catch {
    return undefined;
  }
}

export function paginate<Paths, P extends string>(
  client: AdminClient<Paths>,
  path: KnownPath<P, ListPath<Paths>>,
  ...[init]: InitArgs<OperationOf<Paths, P, 'get'>, PaginateOptions>
): Paginator<ItemOf<Paths, P>, PageOf<Paths, P>> {
  type Init = { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & PaginateOptions;
  const { maxPages = MAX_PAGES, ...base } = (init ?? {}) as Init;
  const get = client.GET as unknown as (path: string, init: object) => Promise<{ data?: unknown; response: Response }>;

  async function* pages(): AsyncIterableIterator<PageOf<Paths, P>> {
    let cursor = base.params?.query?.cursor as string | undefined;
    const seen = new Set<string>(cursor === undefined ? [] : [cursor]);
    const stop = (code: 'too-many-pages' | 'cursor-loop', message: string, limit?: number) =>
      new AdminClientError(code, `paginate ${String(path)}: ${message}`, {
        method: 'GET',
        url: String(path),
        ...(limit === undefined ? {} : { limit }),
      });
    for (let page = 1; ; page++) {
      const query = cursor === undefined ? base.params?.query : { ...base.params?.query, cursor };
      const data = unwrap(await get(path as string, { ...base, params: { ...base.params, query } })) as {
        next?: unknown;
      };
      yield data as PageOf<Paths, P>;
      cursor = cursorOf(data?.next);
      if (cursor === undefined) return;
      if (seen.has(cursor)) {
        throw stop('cursor-loop', `page ${page} points to cursor "${cursor}" again; stopping instead of looping`);
      }
      if (page >= maxPages) {
        throw stop('too-many-pages', `more than maxPages (${maxPages}) pages; stopping`, maxPages);
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
