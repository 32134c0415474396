/**
 * The API as data: per operation, what the mock does with its store. Lists name their collection,
 * their filters (applied, or accepted and documented as not applied) and an optional parent; reads
 * by key name the collection and the path parameter; writes (./writes, one file per collection)
 * are small functions returning the records they change and the response, so that the engine can
 * check the response against the contract before anything is stored (a refused request changes
 * nothing); the states each write accepts are the state table's (./transitions.ts). A new list
 * operation is one entry of {@link OPERATION_DECLS}. docs/mock.md documents every entry.
 */

import type { Refusal } from '../http/index.ts';
import type { MockLimits } from './limits.ts';
import type { Rec } from './model/index.ts';
import type { State } from './state.ts';
import { CONTENT_WRITES } from './writes/content.ts';
import { FULFILLMENT_ORDER_WRITES } from './writes/fulfillment-orders.ts';
import { ORDER_WRITES } from './writes/orders.ts';
import { SUBSCRIPTION_WRITES } from './writes/subscriptions.ts';
import { TRANSACTION_WRITES } from './writes/transactions.ts';

export type FilterKind = 'any' | 'eq' | 'bool' | 'from' | 'to';

export interface FilterDecl {
  param: string;
  kind: FilterKind;
  /** The record's value(s) the filter compares with (an array: any element may match). */
  get: (record: Rec) => unknown;
}

export interface ListDecl {
  kind: 'list';
  collection: string;
  filters: FilterDecl[];
  /** Filters of the contract the mock accepts but does not apply (their meaning is not shown). */
  notApplied: string[];
  /** Records of a parent (`/subscriptions/{id}/transactions/`): the parent must exist. */
  parent?: { collection: string; param: string; owns: (record: Rec, parentKey: string | number) => boolean };
}

export interface GetDecl {
  kind: 'get';
  collection: string;
  /** Path parameter holding the key; none for a singleton (the whole collection is the body). */
  param?: string;
  /** Key → record, when not the collection's own key (order fulfillments by order number). */
  lookup?: (state: State, key: string | number) => Rec | undefined | { missing: string };
}

export interface WriteContext {
  state: State;
  /** A private copy of the addressed record (absent for a create). */
  record: Rec;
  key: string | number;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are validated JSON.
  body: any;
  bodyProperties: string[];
  now: string;
  seed: string;
  limits: MockLimits;
}

export type WriteResult =
  | {
      ok: true;
      body: unknown;
      changes: [collection: string, record: Rec][];
      /** The body is a record of the collection (default), an object of such records, or as-is. */
      shape?: 'record' | 'values' | 'as-is';
    }
  | WriteRefusal;
export type WriteRefusal = { ok: false; refusal: Refusal };

export interface WriteDecl {
  kind: 'write';
  collection: string;
  param?: string;
  /** Describes the effect (docs/mock.md's writes table has the same words). */
  effect: string;
  /**
   * The request's references to other records (a body naming a location), checked before the
   * addressed record's state: a request naming what does not exist is refused as such, whatever
   * the state of the record it addresses. A refusal, or undefined.
   */
  references?: (state: State, body: Rec) => WriteRefusal | undefined;
  run: (context: WriteContext) => WriteResult;
}

export type OperationDecl = ListDecl | GetDecl | WriteDecl;

const date = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : undefined);

/** The assignment status of a fulfillment order, from its request_status (the mock's mapping). */
export const ASSIGNMENT_STATUS: Record<string, string> = {
  pending: 'fulfillment_unrequested',
  requested: 'fulfillment_requested',
  accepted: 'fulfillment_accepted',
  cancel_requested: 'cancellation_requested',
};

const SUBSCRIPTION_FILTERS: FilterDecl[] = [
  { param: 'status', kind: 'any', get: (r) => r.status },
  { param: 'payment_method', kind: 'any', get: (r) => r.payment_method },
  { param: 'card_type', kind: 'any', get: (r) => r.payment_details?.card_type },
  { param: 'is_test', kind: 'bool', get: (r) => r.is_test },
  { param: 'order_number', kind: 'eq', get: (r) => (r.orders ?? []).map((o: Rec) => o.order_number) },
  { param: 'customer_email', kind: 'eq', get: (r) => r.user?.email },
  { param: 'customer_phone_number', kind: 'eq', get: (r) => r.user?.phone_number },
  { param: 'cancel_reason', kind: 'eq', get: (r) => r.cancel_reason },
  { param: 'next_renewal_date_from', kind: 'from', get: (r) => date(r.next_renewal_date) },
  { param: 'next_renewal_date_to', kind: 'to', get: (r) => date(r.next_renewal_date) },
  ...(
    [
      'utm_source',
      'utm_campaign',
      'utm_term',
      'utm_content',
      'affiliate',
      'subaffiliate1',
      'subaffiliate2',
      'subaffiliate3',
      'subaffiliate4',
      'subaffiliate5',
    ] as const
  ).map((name): FilterDecl => ({ param: name, kind: 'eq', get: (r) => r.attribution?.[name] })),
];

const SUBSCRIPTION_NOT_APPLIED = [
  'search_text',
  'address',
  'date_from',
  'date_to',
  'product',
  'sku',
  'gateway',
  'funnels',
  'agents',
  'cancel_date_from',
  'cancel_date_to',
  'recoveries_source',
  'recoveries_date_from',
  'recoveries_date_to',
  'gateway_status',
];

export const OPERATION_DECLS: Record<string, OperationDecl> = {
  listSubscriptions: {
    kind: 'list',
    collection: 'subscriptions',
    filters: SUBSCRIPTION_FILTERS,
    notApplied: SUBSCRIPTION_NOT_APPLIED,
  },
  listSubscriptionTransactions: {
    kind: 'list',
    collection: 'transactions',
    filters: [],
    notApplied: [],
    parent: { collection: 'subscriptions', param: 'id', owns: (r, key) => r.subscription?.id === key },
  },
  listFulfillmentOrders: {
    kind: 'list',
    collection: 'fulfillmentOrders',
    filters: [
      { param: 'order_number', kind: 'eq', get: (r) => r.order_number },
      { param: 'location_id', kind: 'eq', get: (r) => r.assigned_location?.id },
      { param: 'status', kind: 'any', get: (r) => r.status },
      { param: 'request_status', kind: 'any', get: (r) => r.request_status },
      { param: 'fulfillment_order_id', kind: 'eq', get: (r) => r.id },
      { param: 'date_created_from', kind: 'from', get: (r) => date(r.created_at) },
      { param: 'date_created_to', kind: 'to', get: (r) => date(r.created_at) },
    ],
    notApplied: ['shipping_method', 'product', 'sku'],
  },
  listAssignedFulfillmentOrders: {
    kind: 'list',
    collection: 'fulfillmentOrders',
    filters: [
      { param: 'location_id', kind: 'eq', get: (r) => r.assigned_location?.id },
      { param: 'assignment_status', kind: 'eq', get: (r) => ASSIGNMENT_STATUS[r.request_status] },
      { param: 'date_created_from', kind: 'from', get: (r) => date(r.created_at) },
      { param: 'date_created_to', kind: 'to', get: (r) => date(r.created_at) },
    ],
    notApplied: [],
  },
  getTicket: { kind: 'get', collection: 'tickets', param: 'id' },
  getStockRecord: { kind: 'get', collection: 'stockrecords', param: 'id' },
  getStore: { kind: 'get', collection: 'store' },
  getOrderFulfillments: {
    kind: 'get',
    collection: 'orders',
    param: 'number',
    // A recording may hold an order's fulfillment without the order: the fulfillment shows it exists.
    lookup: (state, number) => {
      const fulfillment = state.list('fulfillments').find((f) => f.order_number === String(number));
      if (fulfillment) return fulfillment;
      return state.get('orders', number) ? { missing: `Order ${number} has no fulfillment yet.` } : undefined;
    },
  },

  ...CONTENT_WRITES,
  ...SUBSCRIPTION_WRITES,
  ...FULFILLMENT_ORDER_WRITES,
  ...ORDER_WRITES,
  ...TRANSACTION_WRITES,
};
