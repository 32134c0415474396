// Type tests of the client (vitest typecheck mode, and `tsc -p .`): each `@ts-expect-error` line
// must fail to compile, each `expectTypeOf` must hold.
import { describe, expectTypeOf, it } from 'vitest';
import type * as V2023 from '../../generated/types/2023-02-10.ts';
import type * as V2024 from '../../generated/types/2024-04-01.ts';
import type { VersionPaths } from '../../generated/types/index.ts';
import type * as Unstable from '../../generated/types/unstable.ts';
import {
  type AdminClient,
  AdminClientError,
  type AdminPaths,
  type AdminVersionPaths,
  type ApiVersion,
  createAdminClient,
  paginate,
  unwrap,
  type V2023_02_10,
} from '../../src/client/index.ts';

/**
 * A and B accept the same values. openapi-fetch returns `Readable<T>` (a mapped copy), which is
 * equivalent to an intersection schema type such as `Page & { results: … }` but not identical.
 */
type Equivalent<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const client = createAdminClient({ baseUrl: 'https://shop.example.com/api/admin', token: async () => 'token' });
const old = client.withVersion('2023-02-10');
const id = { params: { path: { id: 1 } } } as const;

describe('generated named aliases', () => {
  it('exports one alias per schema, per version', () => {
    expectTypeOf<V2024.Subscription>().toEqualTypeOf<V2024.components['schemas']['Subscription']>();
    expectTypeOf<V2024.FulfillmentOrder>().toEqualTypeOf<V2024.components['schemas']['FulfillmentOrder']>();
    expectTypeOf<V2024.Ticket>().toEqualTypeOf<V2024.components['schemas']['Ticket']>();
    expectTypeOf<V2024.Order>().toEqualTypeOf<V2024.components['schemas']['Order']>();
    expectTypeOf<V2024.Transaction>().toEqualTypeOf<V2024.components['schemas']['Transaction']>();
    expectTypeOf<V2024.Store>().toEqualTypeOf<V2024.components['schemas']['Store']>();
    expectTypeOf<V2024.PageEnvelope>().toEqualTypeOf<V2024.components['schemas']['PageEnvelope']>();
    expectTypeOf<V2024.Page>().toEqualTypeOf<V2024.components['schemas']['Page']>();
    expectTypeOf<V2024.Page>().toHaveProperty('slug'); // the storefront page; the list envelope is PageEnvelope
    expectTypeOf<V2023.GiftCard>().toEqualTypeOf<V2023.components['schemas']['GiftCard']>();
    expectTypeOf<V2023.StockRecord>().toEqualTypeOf<V2023.components['schemas']['StockRecord']>();
    expectTypeOf<V2023.MetadataDefinition>().toEqualTypeOf<V2023.components['schemas']['MetadataDefinition']>();
    expectTypeOf<Unstable.Ticket>().toEqualTypeOf<Unstable.components['schemas']['Ticket']>();
  });

  it('names the older Subscription `Subscription` in its own version', () => {
    expectTypeOf<V2023.Subscription>().toEqualTypeOf<V2023.components['schemas']['SubscriptionV20230210']>();
    expectTypeOf<V2023_02_10.Subscription>().toEqualTypeOf<V2023.Subscription>();
    expectTypeOf<NonNullable<V2023.Subscription['lines']>[number]>().toHaveProperty('stockrecord');
    expectTypeOf<NonNullable<V2024.Subscription['lines']>[number]>().toHaveProperty('product_title');
  });

  it('keeps request fields with a default optional', () => {
    // enable_export and enable_filter have `default: false` (spec §4.18).
    expectTypeOf<V2023.MetadataDefinitionUpdateRequest['enable_export']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<V2023.MetadataDefinitionUpdateRequest['enable_filter']>().toEqualTypeOf<boolean | undefined>();
    const body: V2023.MetadataDefinitionUpdateRequest = { name: 'Care instructions' };
    client.PATCH('/metadata/{id}/', { ...id, body });
  });
});

describe('the default client', () => {
  it('covers the 19 operations', () => {
    expectTypeOf<keyof AdminPaths>().toEqualTypeOf<
      | '/subscriptions/'
      | '/subscriptions/{id}/renew/'
      | '/subscriptions/{id}/retry/'
      | '/subscriptions/{id}/transactions/'
      | '/fulfillment-orders/'
      | '/fulfillment-orders/{id}/move/'
      | '/fulfillment-orders/{id}/fulfillment-request/'
      | '/fulfillment-orders/{id}/cancellation-request/accept/'
      | '/assigned-fulfillment-orders/'
      | '/gift-cards/'
      | '/tickets/{id}/'
      | '/orders/{number}/fulfillments/'
      | '/orders/{number}/add-line-items/'
      | '/stockrecords/{id}/'
      | '/transactions/{id}/capture/'
      | '/store/'
      | '/metadata/{id}/'
      | '/pages/{id}/'
    >();
    expectTypeOf<keyof AdminPaths['/tickets/{id}/']>().toEqualTypeOf<'get' | 'patch'>();
  });

  it('returns each operation in the shape of its default version', async () => {
    const list = await client.GET('/subscriptions/', { params: { query: { status: ['active'] } } });
    expectTypeOf(unwrap(list)).not.toBeAny();
    expectTypeOf<Equivalent<ReturnType<typeof unwrap<typeof list>>, V2024.SubscriptionPage>>().toEqualTypeOf<true>();
    const ticket = await client.GET('/tickets/{id}/', id);
    expectTypeOf(unwrap(ticket)).toEqualTypeOf<Unstable.Ticket>();
    const patched = await client.PATCH('/tickets/{id}/', { ...id, body: { status: 'solved' } });
    expectTypeOf(unwrap(patched)).toEqualTypeOf<V2024.Ticket>();
    const card = await client.POST('/gift-cards/', { body: { currency: 'EUR', initial: '10.00' } });
    expectTypeOf(unwrap(card)).toEqualTypeOf<V2023.GiftCard>();
    expectTypeOf(unwrap(await client.GET('/store/'))).toEqualTypeOf<V2024.Store[]>();
    expectTypeOf(card.error).toEqualTypeOf<unknown>();
    expectTypeOf(card.response).toEqualTypeOf<Response>();
  });

  it('never asks for the version header', () => {
    client.GET('/store/');
    client.GET('/subscriptions/');
    client.GET('/stockrecords/{id}/', id);
    // @ts-expect-error the version header is the client's
    client.GET('/store/', { params: { header: { 'X-Service-API-Version': '2024-04-01' } } });
    // @ts-expect-error the version header is the client's under withVersion too
    old.GET('/stockrecords/{id}/', { params: { path: { id: 1 }, header: { 'X-Service-API-Version': '2023-02-10' } } });
  });

  it('checks bodies', () => {
    client.PUT('/pages/{id}/', { ...id, body: { title: 'About us', slug: 'about-us' } });
    // @ts-expect-error title is a string
    client.PUT('/pages/{id}/', { ...id, body: { title: 42 } });
    // @ts-expect-error title is required
    client.PUT('/pages/{id}/', { ...id, body: { slug: 'about-us' } });
    // @ts-expect-error the body is required
    client.PUT('/pages/{id}/', id);
    // @ts-expect-error status is one of new, open, pending, solved, closed
    client.PATCH('/tickets/{id}/', { ...id, body: { status: 'done' } });
    // @ts-expect-error new_location_id is an integer
    client.POST('/fulfillment-orders/{id}/move/', { ...id, body: { new_location_id: '2' } });
    // @ts-expect-error initial is a decimal string
    client.POST('/gift-cards/', { body: { currency: 'EUR', initial: 10 } });
    client.PATCH('/metadata/{id}/', { ...id, body: {} });
  });

  it('checks query parameters', () => {
    // @ts-expect-error status values are listed
    client.GET('/subscriptions/', { params: { query: { status: ['gone'] } } });
    // @ts-expect-error status is an array
    client.GET('/subscriptions/', { params: { query: { status: 'active' } } });
  });

  it('refuses unknown paths and methods', () => {
    // @ts-expect-error not an operation
    client.GET('/customers/');
    // @ts-expect-error GET /gift-cards/ is not an operation
    client.GET('/gift-cards/');
    // @ts-expect-error DELETE is not an operation of /pages/{id}/
    client.DELETE('/pages/{id}/', id);
    // @ts-expect-error PUT has one path, and this is not it (the message: test/client/type-errors.test.ts)
    client.PUT('/page/{id}/');
  });

  it('requires path parameters', () => {
    // @ts-expect-error init with the path parameter is required
    client.GET('/stockrecords/{id}/');
    // @ts-expect-error the path parameter is required
    client.GET('/stockrecords/{id}/', { params: {} });
    // @ts-expect-error id is an integer
    client.GET('/stockrecords/{id}/', { params: { path: { id: 'one' } } });
    // @ts-expect-error number is the path parameter of this path
    client.GET('/orders/{number}/fulfillments/', id);
  });

  it('types retry and timeout', () => {
    client.GET('/store/', { timeout: 5000, retry: { attempts: 5 }, signal: AbortSignal.timeout(10_000) });
    client.POST('/gift-cards/', { body: { currency: 'EUR', initial: '1' }, retry: { methods: ['POST'] } });
    // @ts-expect-error timeout is a number of ms
    client.GET('/store/', { timeout: '5s' });
    // `false` lifts the default deadline, on a call or on the client; `true` means nothing.
    client.GET('/store/', { timeout: false });
    createAdminClient({ baseUrl: 'x', token: 't', timeout: false });
    // @ts-expect-error timeout is a number of ms or false
    client.GET('/store/', { timeout: true });
    // @ts-expect-error methods are written in capitals, as Request.method has them
    client.POST('/gift-cards/', { body: { currency: 'EUR', initial: '1' }, retry: { methods: ['post'] } });
    // @ts-expect-error attempts is a number
    client.GET('/store/', { retry: { attempts: 'many' } });
    // @ts-expect-error retry is options or false
    createAdminClient({ baseUrl: 'x', token: 't', retry: true });
    createAdminClient({ baseUrl: 'x', token: 't', maxResponseBytes: 1_000_000 });
    client.GET('/store/', { maxResponseBytes: 10_000 });
    // @ts-expect-error maxResponseBytes is a number of bytes
    client.GET('/store/', { maxResponseBytes: '10 MB' });
    // @ts-expect-error baseUrl is the client's, not a call's (the token must not go elsewhere)
    client.GET('/store/', { baseUrl: 'https://elsewhere.example' });
  });

  it('types the options', () => {
    createAdminClient({ baseUrl: 'x', token: () => 'sync' });
    createAdminClient({ baseUrl: 'x', token: 't', fetch: (request) => fetch(request), headers: { 'X-A': '1' } });
    // @ts-expect-error a token is required
    createAdminClient({ baseUrl: 'x' });
    // @ts-expect-error the token is a string or a function
    createAdminClient({ baseUrl: 'x', token: 42 });
  });
});

describe('withVersion', () => {
  it('returns that version’s response shapes', async () => {
    expectTypeOf(old).toEqualTypeOf<AdminClient<AdminVersionPaths<'2023-02-10'>>>();
    const page = unwrap(await old.GET('/subscriptions/'));
    expectTypeOf(page).not.toBeAny();
    expectTypeOf<Equivalent<typeof page, V2023.SubscriptionPage>>().toEqualTypeOf<true>();
    type OldLine = NonNullable<NonNullable<typeof page.results>[number]['lines']>[number];
    expectTypeOf<OldLine>().toHaveProperty('product');
    expectTypeOf<OldLine>().toHaveProperty('stockrecord');
    // @ts-expect-error the older lines have no product_title
    expectTypeOf<OldLine>().toHaveProperty('product_title');
    const current = unwrap(await client.GET('/subscriptions/'));
    type Line = NonNullable<NonNullable<typeof current.results>[number]['lines']>[number];
    expectTypeOf<Line>().toHaveProperty('product_title');
    // @ts-expect-error the 2024-04-01 lines have no stockrecord
    expectTypeOf<Line>().toHaveProperty('stockrecord');
  });

  it('covers only the operations §9 lists for that version', () => {
    old.GET('/stockrecords/{id}/', id);
    old.PATCH('/metadata/{id}/', { ...id, body: {} });
    expectTypeOf<keyof AdminVersionPaths<'unstable'>>().toEqualTypeOf<'/tickets/{id}/'>();
    // @ts-expect-error GET /store/ is a 2024-04-01 operation
    old.GET('/store/');
    // @ts-expect-error PATCH /tickets/{id}/ is a 2024-04-01 operation
    client.withVersion('unstable').PATCH('/tickets/{id}/', { ...id, body: {} });
    // @ts-expect-error GET /tickets/{id}/ is an unstable operation
    client.withVersion('2024-04-01').GET('/tickets/{id}/', id);
    client.withVersion('unstable').GET('/tickets/{id}/', id);
  });

  it('refuses an unlisted version', () => {
    // The versions of the generated types, and at least those the spec names (a new one joins both).
    expectTypeOf<ApiVersion>().toEqualTypeOf<keyof VersionPaths>();
    expectTypeOf<'2024-04-01' | '2023-02-10' | 'unstable'>().toMatchTypeOf<ApiVersion>();
    // @ts-expect-error not an API version
    client.withVersion('2022-01-01');
    // @ts-expect-error not an API version
    client.withVersion('latest');
  });
});

describe('paginate', () => {
  it('types the items and pages', async () => {
    for await (const subscription of paginate(client, '/subscriptions/', {
      params: { query: { status: ['active'] } },
    })) {
      expectTypeOf(subscription).not.toBeAny();
      expectTypeOf<Equivalent<typeof subscription, V2024.Subscription>>().toEqualTypeOf<true>();
    }
    for await (const subscription of paginate(old, '/subscriptions/')) {
      expectTypeOf(subscription).not.toBeAny();
      expectTypeOf<Equivalent<typeof subscription, V2023.Subscription>>().toEqualTypeOf<true>();
    }
    for await (const transaction of paginate(client, '/subscriptions/{id}/transactions/', id)) {
      expectTypeOf(transaction).toEqualTypeOf<V2024.Transaction>();
    }
    for await (const page of paginate(client, '/fulfillment-orders/').pages()) {
      expectTypeOf(page).not.toBeAny();
      expectTypeOf<Equivalent<typeof page, V2024.FulfillmentOrderPage>>().toEqualTypeOf<true>();
    }
  });

  it('accepts list operations only, with their parameters', () => {
    paginate(client, '/assigned-fulfillment-orders/', {
      params: { query: { assignment_status: 'fulfillment_requested' } },
    });
    // @ts-expect-error GET /store/ is not paginated
    paginate(client, '/store/');
    // @ts-expect-error not a GET operation
    paginate(client, '/gift-cards/');
    // @ts-expect-error the path parameter is required
    paginate(client, '/subscriptions/{id}/transactions/');
    // @ts-expect-error status values are listed
    paginate(client, '/subscriptions/', { params: { query: { status: ['gone'] } } });
    // @ts-expect-error GET /fulfillment-orders/ is not a 2023-02-10 operation
    paginate(old, '/fulfillment-orders/');
    paginate(client, '/subscriptions/', { maxPages: 10, timeout: 5000 });
    // @ts-expect-error maxPages is a number
    paginate(client, '/subscriptions/', { maxPages: 'all' });
  });
});

describe('errors', () => {
  it('types AdminClientError', () => {
    const error = new AdminClientError('too-large', 'm', { method: 'GET', url: '/store/', limit: 1 });
    expectTypeOf(error.code).toEqualTypeOf<
      'path-parameter' | 'redirect' | 'not-json' | 'too-large' | 'too-many-pages' | 'cursor-loop'
    >();
    expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
    expectTypeOf(error).toExtend<Error>();
  });
});
