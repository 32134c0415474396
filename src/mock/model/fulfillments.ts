/**
 * Order fulfillments (`GET /orders/{number}/fulfillments/`): one per seeded order (same index), shipped from one
 * of the locations, its line items those of the order's lines.
 */
import { ORDER_COUNT } from './orders.ts';
import type { AnyRecord, DeclaredCollection } from './types.ts';

const clone = <T>(value: T): T => structuredClone(value);

export const fulfillments: DeclaredCollection<'fulfillments'> = {
  name: 'fulfillments',
  key: 'id',
  singular: 'fulfillment',
  schema: { component: 'OrderFulfillment' },
  // Served by getOrderFulfillments, declared with the orders it addresses (./orders.ts).
  operations: {},
  nestedIn: [{ operationId: 'addOrderLineItems', field: 'fulfillments' }],
  relations: [
    { name: 'order', to: 'orders', keys: (r) => [r.order_number] },
    { name: 'location', to: 'locations', keys: (r) => [r.location_id] },
  ],
  seed: {
    count: ORDER_COUNT,
    record: (i, { templates, store }) => {
      const template = templates.of('getOrderFulfillments');
      const base =
        Object.keys(template).length > 0 ? template : (templates.of('addOrderLineItems').fulfillments?.[0] ?? {});
      const order = store.orders?.[i - 1] as AnyRecord;
      const locations = store.locations ?? [];
      const loc = locations[i % locations.length] as AnyRecord;
      const lineTemplate = { total_discount: '0.00', ...(base.line_items?.[0] ?? {}) };
      return Object.assign(clone(base), {
        id: i,
        order_number: order.number,
        location_id: loc.id,
        origin_address: clone(loc.address),
        created_at: order.created_at,
        last_event_date: order.created_at,
        line_items: (order.lines as AnyRecord[]).map((line, k) => ({
          ...clone(lineTemplate),
          id: i * 10 + k,
          order_line_id: line.id,
          product_id: line.product_id,
          product_title: line.product_title,
          product_image: line.product_image,
          sku: line.sku,
          quantity: line.quantity,
          fulfilled_quantity: String(line.quantity),
          returnable_quantity: line.quantity,
          returned_quantity: 0,
          price_incl_tax: line.price_incl_tax,
          price_excl_tax: line.price_excl_tax,
          price_incl_tax_excl_discounts: line.price_incl_tax,
          price_excl_tax_excl_discounts: line.price_excl_tax,
        })),
      });
    },
  },
};
