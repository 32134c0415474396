/**
 * Conformance of the mock through the typed client: every operation under every version that lists
 * it is called with `createAdminClient(...).withVersion(v)`, and the response is validated against
 * that version's bundle (status declared, body valid against the schema, formats included). The
 * ids name records of the mock's seeded store (docs/mock.md) in a state each operation accepts.
 */
import { describe, expect, inject, it } from 'vitest';
import { createAdminClient } from '../../src/client/index.ts';
import { Contract } from '../../src/conformance/index.ts';
import { loadBundles, VERSION_HEADER } from '../../src/contract/index.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';

const contract = new Contract(loadBundles());
const client = createAdminClient({ baseUrl: inject('mockUrl'), token: 'conformance-token' });
const v2024 = client.withVersion('2024-04-01');
const v2023 = client.withVersion('2023-02-10');
const unstable = client.withVersion('unstable');

interface Outcome {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** One typed call per operation and listed version, with realistic arguments. */
const CALLS: { operationId: string; version: string; run: () => Promise<Outcome> }[] = [
  {
    operationId: 'listSubscriptions',
    version: '2024-04-01',
    run: () =>
      v2024.GET('/subscriptions/', {
        params: {
          query: { status: ['active', 'past_due'], card_type: ['visa'], date_from: '2024-01-01', is_test: false },
        },
      }),
  },
  {
    operationId: 'listSubscriptions',
    version: '2023-02-10',
    run: () => v2023.GET('/subscriptions/', { params: { query: { status: ['canceled'], gateway_status: 'active' } } }),
  },
  {
    operationId: 'renewSubscription',
    version: '2024-04-01',
    run: () => v2024.POST('/subscriptions/{id}/renew/', { params: { path: { id: 1 } } }),
  },
  {
    operationId: 'retrySubscription',
    version: '2024-04-01',
    // 1042: the contract's example key, a past_due subscription owing its latest order.
    run: () =>
      v2024.POST('/subscriptions/{id}/retry/', { params: { path: { id: 1042 } }, body: { payment_gateway: 3 } }),
  },
  {
    operationId: 'listSubscriptionTransactions',
    version: '2024-04-01',
    run: () =>
      v2024.GET('/subscriptions/{id}/transactions/', { params: { path: { id: 1 }, query: { cursor: 'bjoxMA' } } }),
  },
  {
    operationId: 'listFulfillmentOrders',
    version: '2024-04-01',
    run: () =>
      v2024.GET('/fulfillment-orders/', {
        params: {
          query: { status: ['open', 'on_hold'], request_status: ['requested'], date_created_to: '2024-05-31' },
        },
      }),
  },
  {
    operationId: 'moveFulfillmentOrder',
    version: '2024-04-01',
    run: () =>
      v2024.POST('/fulfillment-orders/{id}/move/', {
        params: { path: { id: 2 } },
        body: { new_location_id: 12, fulfillment_order_line_items: [{ id: 20, quantity: 1 }] },
      }),
  },
  {
    operationId: 'sendFulfillmentRequest',
    version: '2024-04-01',
    run: () =>
      v2024.POST('/fulfillment-orders/{id}/fulfillment-request/', {
        params: { path: { id: 1 } },
        body: { message: 'Please ship today', notify: true },
      }),
  },
  {
    operationId: 'acceptCancellationRequest',
    version: '2024-04-01',
    run: () =>
      v2024.POST('/fulfillment-orders/{id}/cancellation-request/accept/', {
        params: { path: { id: 29 } },
        body: { message: null },
      }),
  },
  {
    operationId: 'listAssignedFulfillmentOrders',
    version: '2024-04-01',
    run: () =>
      v2024.GET('/assigned-fulfillment-orders/', {
        params: { query: { assignment_status: 'fulfillment_requested', location_id: '12' } },
      }),
  },
  {
    operationId: 'createGiftCard',
    version: '2023-02-10',
    run: () =>
      v2023.POST('/gift-cards/', { body: { currency: 'EUR', initial: '50.00', expired_at: '2025-12-31T23:59:59Z' } }),
  },
  {
    operationId: 'getTicket',
    version: 'unstable',
    run: () => unstable.GET('/tickets/{id}/', { params: { path: { id: 7 } } }),
  },
  {
    operationId: 'updateTicket',
    version: '2024-04-01',
    run: () =>
      v2024.PATCH('/tickets/{id}/', {
        params: { path: { id: 7 } },
        body: { status: 'solved', priority: 'low', tags: ['refund'], assignee: null, from_email: 'ana@example.com' },
      }),
  },
  {
    operationId: 'getOrderFulfillments',
    version: '2023-02-10',
    run: () => v2023.GET('/orders/{number}/fulfillments/', { params: { path: { number: '1003' } } }),
  },
  {
    operationId: 'addOrderLineItems',
    version: '2024-04-01',
    run: () =>
      v2024.POST('/orders/{number}/add-line-items/', {
        params: { path: { number: '1003' } },
        body: { lines: [{ product_id: 7, quantity: 2 }] },
      }),
  },
  {
    operationId: 'getStockRecord',
    version: '2023-02-10',
    run: () => v2023.GET('/stockrecords/{id}/', { params: { path: { id: 3 } } }),
  },
  {
    operationId: 'captureTransaction',
    version: '2023-02-10',
    run: () => v2023.POST('/transactions/{id}/capture/', { params: { path: { id: 4 } }, body: { amount: '1.00' } }),
  },
  { operationId: 'getStore', version: '2024-04-01', run: () => v2024.GET('/store/') },
  {
    operationId: 'updateMetadataDefinition',
    version: '2023-02-10',
    run: () =>
      v2023.PATCH('/metadata/{id}/', {
        params: { path: { id: 3 } },
        body: { name: 'Care instructions', object: 'product', validations: [{ type: 'maximum_length', value: '255' }] },
      }),
  },
  {
    operationId: 'updatePage',
    version: '2024-04-01',
    run: () =>
      v2024.PUT('/pages/{id}/', {
        params: { path: { id: 3 } },
        body: { title: 'About us', template: 'pages/page.about.html', metadata: { hero: true } },
      }),
  },
];

describe('every operation under every listed version, through the typed client', () => {
  it('covers exactly the operations of the bundles', () => {
    const inBundles = contract.operations.map((o) => `${o.operationId} ${o.version}`).sort();
    expect(CALLS.map((c) => `${c.operationId} ${c.version}`).sort()).toEqual(inBundles);
    expect(new Set(contract.operations.map((o) => `${o.method} ${o.path}`)).size).toBe(SPEC_OPERATIONS.length);
  });

  it.each(CALLS)('$operationId ($version) answers a response valid against the contract', async (c) => {
    const operation = contract.find(c.version, c.operationId);
    if (!operation) throw new Error(`${c.operationId} is not in ${c.version}`);
    const { data, error, response } = await c.run();
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(response.headers.get(VERSION_HEADER)).toBe(c.version);
    expect(response.headers.get('sl-violations')).toBeNull();
    expect(contract.validateValue(operation, response.status, response.headers.get('content-type'), data)).toEqual([]);
  });

  it('gives a typed-client user the refusal body on a request the types cannot catch', async () => {
    const { error, response } = await v2023.POST('/gift-cards/', { body: { currency: 'EUR', initial: '1.234' } });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ validation: [{ field: 'body.initial', rule: 'pattern' }] });
  });

  it('refuses in the client, before sending, a version that does not serve the operation', async () => {
    // @ts-expect-error GET /tickets/{id}/ is not an operation of 2024-04-01
    await expect(v2024.GET('/tickets/{id}/', { params: { path: { id: 1 } } })).rejects.toThrow(/unstable/);
  });
});

describe('the contract validator itself', () => {
  it('flags a response that breaks the schema (negative control)', () => {
    const operation = contract.find('2024-04-01', 'getStore');
    if (!operation) throw new Error('getStore missing');
    const violations = contract.validateValue(operation, 200, 'application/json', [{ name: 42 }]);
    expect(violations).toContainEqual(expect.objectContaining({ field: 'body[0].name', rule: 'type' }));
    expect(violations).toContainEqual(expect.objectContaining({ field: 'body[0].timezone', rule: 'required' }));
    expect(contract.validateValue(operation, 500, 'application/json', {})).toEqual([
      expect.objectContaining({ field: 'status', rule: 'status' }),
    ]);
  });
});
