/**
 * Fulfillment orders 1..56: every (`status`, `request_status`) pair once, each holding the lines of
 * one order, assigned to one of the locations. Their lists; their writes (move, fulfillment request,
 * cancellation accept) with their rows of the state table; `supported_actions` derived from those
 * rows, so a record's actions always agree with what the writes accept next.
 */
import { clone, refuse } from '../writes/common.ts';
import { at, day, dayOf, FULFILLMENT_STATUSES, REQUEST_STATUSES } from './catalogue.ts';
import { copyAtKey } from './example-records.ts';
import { copyOf, selectLines } from './fulfillment-order-split.ts';
import type { StoredFulfillmentOrder, StoredLocation, StoredOrder } from './records.ts';
import type { AnyRecord, DeclaredCollection, ExampleContext, WriteOperation } from './types.ts';

/** The assignment status of a fulfillment order, from its request_status (the mock's mapping). */
export const ASSIGNMENT_STATUS: Record<string, string> = {
  pending: 'fulfillment_unrequested',
  requested: 'fulfillment_requested',
  accepted: 'fulfillment_accepted',
  cancel_requested: 'cancellation_requested',
};

const DONE = new Set(['closed', 'canceled']);

/** Why a fulfillment order cannot be moved or requested (closed, canceled or empty), or undefined. */
const openRefusal = (record: StoredFulfillmentOrder): string | undefined => {
  if (DONE.has(record.status)) return `has status ${record.status}`;
  if (!Array.isArray(record.line_items) || record.line_items.length === 0) return 'has no line items left';
  return undefined;
};

/**
 * A pending, open fulfillment order holding the line items the example requests name (move and
 * fulfillment request), each on a line of its order, at a location the move example does not target.
 */
function atExampleKey(key: string, context: ExampleContext): [string, StoredFulfillmentOrder][] {
  const record = copyAtKey(
    fulfillmentOrders,
    key,
    context,
    (r) => r.status === 'open' && r.request_status === 'pending',
  );
  const moves = context.requests('moveFulfillmentOrder');
  const named = [...moves, ...context.requests('sendFulfillmentRequest')].flatMap((body) =>
    ((body.fulfillment_order_line_items ?? []) as AnyRecord[]).map((item) => Number(item.id)),
  );
  const order = context.get('orders', record.order_number);
  const lines = order?.lines ?? [];
  // Copies of the example's line item, fields from a line of the order when it has one.
  const template: AnyRecord = record.line_items?.[0] ?? {};
  record.line_items = [...new Set(named)].map((id, k) => {
    const line: AnyRecord = lines[k % Math.max(lines.length, 1)] ?? {};
    return {
      ...clone(template),
      id,
      fulfillment_order_id: Number(key),
      order_line_id: line.id ?? template.order_line_id,
      product_id: String(line.product_id ?? template.product_id),
      product_title: line.product_title ?? template.product_title,
      sku: line.sku ?? template.sku,
      quantity: line.quantity ?? 1,
      fulfillable_quantity: String(line.quantity ?? 1),
      price_incl_tax: line.price_incl_tax ?? template.price_incl_tax,
      price_excl_tax: line.price_excl_tax ?? template.price_excl_tax,
    } as StoredFulfillmentOrder['line_items'][number];
  });
  const targets = new Set(moves.map((body) => body.new_location_id));
  const location = (context.store.locations ?? []).find((l) => !targets.has(l.id));
  if (location && targets.has(record.assigned_location?.id))
    record.assigned_location = clone(location) as StoredFulfillmentOrder['assigned_location'];
  record.status = 'open';
  record.request_status = 'pending';
  return [['fulfillmentOrders', record]];
}

/** A fulfillment order as stored: its `supported_actions` derived from its state. */
export const withActions = (record: StoredFulfillmentOrder): StoredFulfillmentOrder =>
  Object.assign(record, { supported_actions: supportedActions(record) });

/** The `supported_actions` of a fulfillment order: the actions whose write accepts it now. */
export function supportedActions(record: StoredFulfillmentOrder): string[] {
  const actions: string[] = [];
  for (const { state } of Object.values(WRITES))
    if (state?.action !== undefined && state.refuses(record) === undefined) actions.push(state.action);
  return actions;
}

const WRITES: Record<string, WriteOperation<StoredFulfillmentOrder>> = {
  moveFulfillmentOrder: {
    kind: 'write',
    param: 'id',
    state: {
      action: 'move',
      accepts: 'fulfillment order `status` not closed or canceled, with line items',
      refuses: openRefusal,
    },
    references: (state, body) => {
      if (state.get('locations', body.new_location_id)) return undefined;
      const ids = state
        .list('locations')
        .map((l) => l.id)
        .join(', ');
      return refuse(
        'body.new_location_id',
        'exists',
        `no location ${body.new_location_id} (the mock's locations: ${ids})`,
      );
    },
    run: ({ state, record, body, now }) => {
      // references() found it.
      const location = state.get('locations', body.new_location_id) as StoredLocation;
      if (record.assigned_location?.id === location.id) {
        return refuse(
          'body.new_location_id',
          'state',
          `fulfillment order ${record.id} is already at location ${location.id}`,
        );
      }
      const picked = selectLines(record, body.fulfillment_order_line_items);
      if (!picked.ok) return picked.result;
      const moved = copyOf(record, state.nextKey('fulfillmentOrders'), now, picked.selected);
      Object.assign(moved, {
        assigned_location: clone(location),
        status: 'open',
        request_status: 'pending',
        merchant_requests: [],
      });
      record.line_items = picked.rest;
      record.updated_at = now;
      if (picked.rest.length === 0) record.status = 'closed';
      return {
        ok: true,
        body: { moved_fulfillment_order: withActions(moved), original_fulfillment_order: withActions(record) },
        shape: 'values',
        changes: [
          ['fulfillmentOrders', record],
          ['fulfillmentOrders', moved],
        ],
      };
    },
  },
  sendFulfillmentRequest: {
    kind: 'write',
    param: 'id',
    state: {
      action: 'request_fulfillment',
      accepts: '`status` not closed or canceled, `request_status` pending, with line items',
      refuses: (r) =>
        openRefusal(r) ??
        (r.request_status === 'pending'
          ? undefined
          : `has request_status ${r.request_status}; a fulfillment request needs pending`),
    },
    run: ({ state, record, body, now }) => {
      const picked = selectLines(record, body?.fulfillment_order_line_items);
      if (!picked.ok) return picked.result;
      const request = { message: body?.message ?? null, notify: body?.notify ?? false, type: 'fulfill_request' };
      record.updated_at = now;
      if (picked.rest.length === 0) {
        record.request_status = 'requested';
        record.merchant_requests = [...(record.merchant_requests ?? []), request];
        withActions(record);
        const parts = {
          original_fulfillment_order: record,
          requested_fulfillment_order: record,
          unrequested_fulfillment_order: null,
        };
        return { ok: true, body: parts, shape: 'values', changes: [['fulfillmentOrders', record]] };
      }
      const requested = copyOf(record, state.nextKey('fulfillmentOrders'), now, picked.selected);
      Object.assign(requested, { request_status: 'requested', merchant_requests: [request] });
      record.line_items = picked.rest;
      const parts = {
        original_fulfillment_order: withActions(record),
        requested_fulfillment_order: withActions(requested),
        unrequested_fulfillment_order: record,
      };
      return {
        ok: true,
        body: parts,
        shape: 'values',
        changes: [
          ['fulfillmentOrders', record],
          ['fulfillmentOrders', requested],
        ],
      };
    },
  },
  acceptCancellationRequest: {
    kind: 'write',
    param: 'id',
    state: {
      accepts:
        '`status` not closed or canceled, `request_status` not cancel_accepted or closed (the contract has no operation sending a cancellation request, so the mock takes one as sent)',
      refuses: (r) =>
        DONE.has(r.status)
          ? `has status ${r.status}`
          : r.request_status === 'cancel_accepted' || r.request_status === 'closed'
            ? `has request_status ${r.request_status}; there is no cancellation left to accept`
            : undefined,
    },
    run: ({ record, now }) => {
      Object.assign(record, { request_status: 'cancel_accepted', status: 'canceled', updated_at: now });
      return { ok: true, body: withActions(record), changes: [['fulfillmentOrders', record]] };
    },
  },
};

export const fulfillmentOrders: DeclaredCollection<'fulfillmentOrders'> = {
  name: 'fulfillmentOrders',
  key: 'id',
  singular: 'fulfillment order',
  schema: { component: 'FulfillmentOrder' },
  operations: {
    listFulfillmentOrders: {
      kind: 'list',
      filters: [
        { param: 'order_number', kind: 'eq', get: (r) => r.order_number },
        { param: 'location_id', kind: 'eq', get: (r) => r.assigned_location?.id },
        { param: 'status', kind: 'any', get: (r) => r.status },
        { param: 'request_status', kind: 'any', get: (r) => r.request_status },
        { param: 'fulfillment_order_id', kind: 'eq', get: (r) => r.id },
        { param: 'date_created_from', kind: 'from', get: (r) => dayOf(r.created_at) },
        { param: 'date_created_to', kind: 'to', get: (r) => dayOf(r.created_at) },
      ],
      notApplied: ['shipping_method', 'product', 'sku'],
    },
    listAssignedFulfillmentOrders: {
      kind: 'list',
      filters: [
        { param: 'location_id', kind: 'eq', get: (r) => r.assigned_location?.id },
        { param: 'assignment_status', kind: 'eq', get: (r) => ASSIGNMENT_STATUS[r.request_status] },
        { param: 'date_created_from', kind: 'from', get: (r) => dayOf(r.created_at) },
        { param: 'date_created_to', kind: 'to', get: (r) => dayOf(r.created_at) },
      ],
      notApplied: [],
    },
    ...WRITES,
  },
  atExampleKey: atExampleKey,
  relations: [
    { name: 'order', to: 'orders', keys: (r) => [r.order_number] },
    { name: 'location', to: 'locations', keys: (r) => [r.assigned_location?.id] },
  ],
  seed: {
    count: 56,
    record: (i, { prng, templates, store }) => {
      const orders = store.orders ?? [];
      const locations = store.locations ?? [];
      const order = orders[((i - 1) * 19) % orders.length] as StoredOrder; // a stride: distinct orders, some of two lines
      const created = at(prng.int(0, 140) * day + prng.int(0, day));
      const record = templates.of('listFulfillmentOrders').results?.[0] ?? {};
      const lineTemplate = record.line_items?.[0] ?? {};
      const stockrecords = store.stockrecords?.length ?? 1;
      const seeded = Object.assign(record, {
        id: i,
        order_number: order.number,
        status: FULFILLMENT_STATUSES[(i - 1) % FULFILLMENT_STATUSES.length],
        request_status: REQUEST_STATUSES[Math.floor((i - 1) / FULFILLMENT_STATUSES.length) % REQUEST_STATUSES.length],
        assigned_location: clone(locations[(i - 1) % locations.length]),
        created_at: created,
        updated_at: created,
        fulfillment_holds: [],
        merchant_requests: [],
        shipping_address: clone(order.shipping_address ?? record.shipping_address),
        line_items: (order.lines ?? []).map((line, k) => ({
          ...clone(lineTemplate),
          id: i * 10 + k,
          fulfillment_order_id: i,
          order_line_id: line.id,
          product_id: String(line.product_id),
          product_title: line.product_title,
          product_image: line.product_image,
          sku: line.sku,
          quantity: line.quantity,
          fulfillable_quantity: String(line.quantity),
          price_incl_tax: line.price_incl_tax,
          price_excl_tax: line.price_excl_tax,
          stockrecord_id: 1 + ((Number(line.product_id) - 1) % stockrecords),
        })),
      });
      return Object.assign(seeded, { supported_actions: supportedActions(seeded) });
    },
  },
};
