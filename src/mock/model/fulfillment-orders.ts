/**
 * Fulfillment orders 1..56: every (`status`, `request_status`) pair once, each holding the lines of
 * one order, assigned to one of the locations. `supported_actions` is derived from the state table
 * (../transitions.ts) whenever a record is shown.
 */

import { supportedActions } from '../transitions.ts';
import { at, day, FULFILLMENT_STATUSES, REQUEST_STATUSES } from './catalogue.ts';
import { copyAtKey } from './examples.ts';
import type { CollectionDecl, ExampleContext, Rec } from './types.ts';

const clone = <T>(value: T): T => structuredClone(value);

/**
 * A pending, open fulfillment order holding the line items the example requests name (move and
 * fulfillment request), each on a line of its order, at a location the move example does not target.
 */
function atExampleKey(key: string, context: ExampleContext): [string, Rec][] {
  const record = copyAtKey(
    fulfillmentOrders,
    key,
    context,
    (r) => r.status === 'open' && r.request_status === 'pending',
  );
  const moves = context.requests('moveFulfillmentOrder');
  const named = [...moves, ...context.requests('sendFulfillmentRequest')].flatMap((body) =>
    ((body.fulfillment_order_line_items ?? []) as Rec[]).map((item) => Number(item.id)),
  );
  const order = context.get('orders', record.order_number);
  const lines = (order?.lines ?? []) as Rec[];
  const template = record.line_items?.[0] ?? {};
  record.line_items = [...new Set(named)].map((id, k) => {
    const line = lines[k % Math.max(lines.length, 1)] ?? {};
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
    };
  });
  const targets = new Set(moves.map((body) => body.new_location_id));
  const location = (context.store.locations ?? []).find((l) => !targets.has(l.id));
  if (location && targets.has(record.assigned_location?.id)) record.assigned_location = clone(location);
  record.status = 'open';
  record.request_status = 'pending';
  return [['fulfillmentOrders', record]];
}

export const fulfillmentOrders: CollectionDecl = {
  name: 'fulfillmentOrders',
  key: 'id',
  singular: 'fulfillment order',
  schema: { operationId: 'acceptCancellationRequest', shape: 'body' },
  servedBy: [
    'listFulfillmentOrders',
    'listAssignedFulfillmentOrders',
    'moveFulfillmentOrder',
    'sendFulfillmentRequest',
    'acceptCancellationRequest',
  ],
  addressedBy: ['moveFulfillmentOrder', 'sendFulfillmentRequest', 'acceptCancellationRequest'],
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
      const order = orders[((i - 1) * 19) % orders.length] as Rec; // a stride: distinct orders, some of two lines
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
        line_items: (order.lines as Rec[]).map((line, k) => ({
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
          stockrecord_id: 1 + ((line.product_id - 1) % stockrecords),
        })),
      });
      return Object.assign(seeded, { supported_actions: supportedActions(seeded) });
    },
  },
};
