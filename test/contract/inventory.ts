/**
 * The 19 operations of the specification (§4, §5, §9), written out by hand as the oracle the
 * bundles are checked against. Keep it in step with the spec, not with the bundles.
 */
export interface SpecOperation {
  section: string;
  method: 'get' | 'post' | 'put' | 'patch';
  path: string;
  operationId: string;
  /** The API versions that serve the operation (§9); the first is its default. */
  versions: readonly string[];
  /** Scopes of §4; two scopes are alternatives (one security requirement each). */
  scopes: readonly string[];
}

export const SPEC_OPERATIONS: readonly SpecOperation[] = [
  {
    section: '4.1',
    method: 'get',
    path: '/subscriptions/',
    operationId: 'listSubscriptions',
    versions: ['2024-04-01', '2023-02-10'],
    scopes: ['subscriptions:read'],
  },
  {
    section: '4.2',
    method: 'post',
    path: '/subscriptions/{id}/renew/',
    operationId: 'renewSubscription',
    versions: ['2024-04-01'],
    scopes: ['subscriptions:write'],
  },
  {
    section: '4.3',
    method: 'post',
    path: '/subscriptions/{id}/retry/',
    operationId: 'retrySubscription',
    versions: ['2024-04-01'],
    scopes: ['subscriptions:write'],
  },
  {
    section: '4.4',
    method: 'get',
    path: '/subscriptions/{id}/transactions/',
    operationId: 'listSubscriptionTransactions',
    versions: ['2024-04-01'],
    scopes: ['subscriptions:read'],
  },
  {
    section: '4.5',
    method: 'get',
    path: '/fulfillment-orders/',
    operationId: 'listFulfillmentOrders',
    versions: ['2024-04-01'],
    scopes: ['fulfillment_service:read', 'fulfillment_orders:read'],
  },
  {
    section: '4.6',
    method: 'post',
    path: '/fulfillment-orders/{id}/move/',
    operationId: 'moveFulfillmentOrder',
    versions: ['2024-04-01'],
    scopes: ['fulfillment_orders:write'],
  },
  {
    section: '4.7',
    method: 'post',
    path: '/fulfillment-orders/{id}/fulfillment-request/',
    operationId: 'sendFulfillmentRequest',
    versions: ['2024-04-01'],
    scopes: ['fulfillment_orders:write'],
  },
  {
    section: '4.8',
    method: 'post',
    path: '/fulfillment-orders/{id}/cancellation-request/accept/',
    operationId: 'acceptCancellationRequest',
    versions: ['2024-04-01'],
    scopes: ['fulfillment_service:write', 'fulfillment_orders:write'],
  },
  {
    section: '4.9',
    method: 'get',
    path: '/assigned-fulfillment-orders/',
    operationId: 'listAssignedFulfillmentOrders',
    versions: ['2024-04-01'],
    scopes: ['fulfillment_service:read'],
  },
  {
    section: '4.10',
    method: 'post',
    path: '/gift-cards/',
    operationId: 'createGiftCard',
    versions: ['2023-02-10'],
    scopes: ['gift_cards:write'],
  },
  {
    section: '4.11',
    method: 'get',
    path: '/tickets/{id}/',
    operationId: 'getTicket',
    versions: ['unstable'],
    scopes: ['tickets:read'],
  },
  {
    section: '4.12',
    method: 'patch',
    path: '/tickets/{id}/',
    operationId: 'updateTicket',
    versions: ['2024-04-01'],
    scopes: ['tickets:write'],
  },
  {
    section: '4.13',
    method: 'get',
    path: '/orders/{number}/fulfillments/',
    operationId: 'getOrderFulfillments',
    versions: ['2023-02-10'],
    scopes: ['orders:read'],
  },
  {
    section: '4.14',
    method: 'post',
    path: '/orders/{number}/add-line-items/',
    operationId: 'addOrderLineItems',
    versions: ['2024-04-01'],
    scopes: ['orders:write'],
  },
  {
    section: '4.15',
    method: 'get',
    path: '/stockrecords/{id}/',
    operationId: 'getStockRecord',
    versions: ['2023-02-10'],
    scopes: ['catalogue:read'],
  },
  {
    section: '4.16',
    method: 'post',
    path: '/transactions/{id}/capture/',
    operationId: 'captureTransaction',
    versions: ['2023-02-10'],
    scopes: ['transactions:write'],
  },
  {
    section: '4.17',
    method: 'get',
    path: '/store/',
    operationId: 'getStore',
    versions: ['2024-04-01'],
    scopes: ['store:read'],
  },
  {
    section: '4.18',
    method: 'patch',
    path: '/metadata/{id}/',
    operationId: 'updateMetadataDefinition',
    versions: ['2023-02-10'],
    scopes: ['metadata:write'],
  },
  {
    section: '4.19',
    method: 'put',
    path: '/pages/{id}/',
    operationId: 'updatePage',
    versions: ['2024-04-01'],
    scopes: ['content:write'],
  },
];

/** Every scope of spec §5.3. */
export const SPEC_SCOPES = [
  'subscriptions:read',
  'subscriptions:write',
  'fulfillment_orders:read',
  'fulfillment_orders:write',
  'fulfillment_service:read',
  'fulfillment_service:write',
  'gift_cards:write',
  'tickets:read',
  'tickets:write',
  'orders:read',
  'orders:write',
  'catalogue:read',
  'transactions:write',
  'store:read',
  'metadata:write',
  'content:write',
] as const;

/**
 * Success statuses beyond the assumed 200 (spec §4: "Success status codes: not shown"), each seen
 * in recorded traffic: createGiftCard answered 201 in all 24 creations of the staging recording of
 * 2026-11-25 (openapi/changelogs/2023-02-10.md, docs/fidelity.md).
 */
export const RECORDED_SUCCESS: Record<string, string[]> = { createGiftCard: ['201'] };
