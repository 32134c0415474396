/**
 * Fulfillment orders 1..56: every (`status`, `request_status`) pair once, each holding the lines of
 * one order, assigned to one of the locations. `supported_actions` is derived from the state table
 * (../transitions.ts) whenever a record is shown.
 */
import { at, day, FULFILLMENT_STATUSES, REQUEST_STATUSES } from './catalogue.ts';
import type { CollectionDecl, Rec } from './types.ts';

const clone = <T>(value: T): T => structuredClone(value);

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
  relations: [
    { name: 'order', to: 'orders', keys: (r) => [r.order_number] },
    { name: 'location', to: 'locations', keys: (r) => [r.assigned_location?.id] },
  ],
  seed: {
    count: 56,
    record: (i, { prng, templates, store }) => {
      const orders = store.orders ?? [];
      const locations = store.locations ?? [];
      const order = orders[(i - 1) % orders.length] as Rec;
      const created = at(prng.int(0, 140) * day + prng.int(0, day));
      const record = templates.of('listFulfillmentOrders').results?.[0] ?? {};
      const lineTemplate = record.line_items?.[0] ?? {};
      const stockrecords = store.stockrecords?.length ?? 1;
      return Object.assign(record, {
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
    },
  },
};
