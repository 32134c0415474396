/**
 * Orders, addressed by `number` (a numeric string, "1001".."1040"): lines from the catalogue, one
 * `sale` transaction paying the total, the subscriptions that renewed into them. Their
 * `fulfillments` are a view: the order fulfillments naming the order (./fulfillments.ts).
 */
import { at, day, FIRST_ORDER_NUMBER, orderLine, PRODUCTS, retotal } from './catalogue.ts';
import type { CollectionDecl, Rec } from './types.ts';

const clone = <T>(value: T): T => structuredClone(value);

/** A compact (order-embedded) `sale` transaction of `amount`. */
export function compactSale(template: Rec, id: number, amount: string, created: string): Rec {
  const out = clone(template);
  Object.assign(out, { id, amount, date_created: created, status: 'succeeded', type: 'sale', parent_id: null });
  if (out.report_values) out.report_values = { ...out.report_values, amount };
  return out;
}

export const orders: CollectionDecl = {
  name: 'orders',
  key: 'number',
  singular: 'order',
  schema: { operationId: 'addOrderLineItems', shape: 'body' },
  servedBy: ['addOrderLineItems'],
  relations: [
    { name: 'subscriptions', to: 'subscriptions', keys: (r) => (r.subscriptions ?? []).map((s: Rec) => s.id) },
  ],
  seed: {
    count: 40,
    record: (i, { prng, templates, users }) => {
      const template = templates.of('addOrderLineItems');
      const number = String(FIRST_ORDER_NUMBER + i - 1);
      const created = at(i * 3 * day + prng.int(0, day));
      const user = prng.pick(users);
      const order = clone(template);
      const products = [prng.pick(PRODUCTS), ...(i % 3 === 0 ? [prng.pick(PRODUCTS)] : [])];
      const lineTemplate = template.lines?.[0] ?? {};
      order.lines = products.map((p, k) => orderLine(lineTemplate, p, i * 10 + k, prng.int(1, 3), created));
      Object.assign(order, {
        number,
        created_at: created,
        date_placed: created,
        updated_at: created,
        user: clone(user),
        order_status_url: `https://shop.example.com/orders/${number}/status/`,
        refunds: [],
        subscriptions: [],
        tags: i % 4 === 0 ? ['vip'] : [],
        is_test: false,
        transactions: [],
      });
      for (const address of [order.billing_address, order.shipping_address]) {
        if (address) Object.assign(address, { first_name: user.first_name, last_name: user.last_name });
      }
      retotal(order);
      order.transactions = [compactSale(template.transactions?.[0] ?? {}, 1000 + i, order.total_incl_tax, created)];
      retotal(order);
      return order;
    },
  },
  view: (record, { list }) => ({
    ...record,
    fulfillments: list('fulfillments').filter((f) => f.order_number === record.number),
  }),
};
