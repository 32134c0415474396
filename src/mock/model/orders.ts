/**
 * Orders, addressed by `number` (a numeric string from "1001"): first the renewals of the seeded
 * subscriptions (each subscription's billing cycles in turn, with its lines), then a few one-off
 * purchases. Each is paid by one payment (every 4th an `authorization`, paying once captured),
 * except the latest order of a past_due or retrying subscription, still unpaid. Their
 * `fulfillments` are a view: the order fulfillments naming the order (./fulfillments.ts). Adding
 * lines (bounded by ../limits.ts, paid by one `sale`: ../writes/payments.ts); the read of an
 * order's fulfillment by the order's number.
 */

import type { DefaultSchemas } from '../../../generated/types/index.ts';
import { clone, maxId, refuse } from '../writes/common.ts';
import { pay } from '../writes/payments.ts';
import { at, day, FIRST_ORDER_NUMBER, money, PRODUCTS, productOf } from './catalogue.ts';
import { copyAtKey } from './example-records.ts';
import { compactSale, lineId, orderLine, retotal } from './order-arithmetic.ts';
import type { StoredOrder, StoredSubscription } from './records.ts';
import { cyclesOf, OWING, OWING_SUBSCRIPTIONS, ownerOfOrder, SUBSCRIPTION_ORDERS } from './renewals.ts';
import type { AnyRecord, DeclaredCollection, SeedContext, WriteOperation } from './types.ts';

type TransactionCompact = DefaultSchemas['TransactionCompact'];

/** Orders besides the subscriptions' renewals: one-off purchases. */
const ONE_OFF_ORDERS = 7;
export const ORDER_COUNT = SUBSCRIPTION_ORDERS + ONE_OFF_ORDERS;
/** Payments seeded: every order's but the unpaid latest orders of owing subscriptions. */
export const PAYMENT_COUNT = ORDER_COUNT - OWING_SUBSCRIPTIONS;

/** The compact payment of an order: the `i`-th payment of the store (every 4th an authorization). */
export function compactPayment(template: AnyRecord, id: number, amount: string, created: string): TransactionCompact {
  const payment = compactSale(template, id, amount, created);
  if (id % 4 === 0) payment.type = 'authorization';
  return payment;
}

/** Lines, dates and customer of order `j`: a subscription's renewal, or a one-off purchase. */
function contentOf(j: number, number: string, { prng, templates, store, users }: SeedContext) {
  const lineTemplate = templates.of('addOrderLineItems').lines?.[0] ?? {};
  const owner = ownerOfOrder(j);
  if (owner) {
    // Subscriptions are seeded before orders (./index.ts), one per owner id.
    const sub = store.subscriptions?.[owner.id - 1] as StoredSubscription;
    const days = (owner.cycle - 1) * (Number(sub.interval_count) || 30);
    const created = new Date(Date.parse(sub.date_created) + days * day * 1000).toISOString().replace('.000Z', 'Z');
    const lines = sub.lines.map((l, k) =>
      orderLine(lineTemplate, {
        product: productOf(Number(l.product_id)),
        id: lineId(number, k),
        quantity: l.quantity,
        created,
      }),
    );
    const unpaid = OWING.has(sub.status) && owner.cycle === cyclesOf(owner.id);
    return {
      created,
      user: sub.user,
      lines,
      subscriptions: [{ billing_cycle: owner.cycle, id: owner.id }],
      unpaid,
    };
  }
  const created = at(j * 3 * day + prng.int(0, day));
  const user = prng.pick(users);
  const products = [prng.pick(PRODUCTS), ...(j % 3 === 0 ? [prng.pick(PRODUCTS)] : [])];
  const lines = products.map((p, k) =>
    orderLine(lineTemplate, { product: p, id: lineId(number, k), quantity: prng.int(1, 3), created }),
  );
  return { created, user, lines, subscriptions: [], unpaid: false };
}

function seedOrder(j: number, context: SeedContext): StoredOrder {
  const template = context.templates.recordOf('addOrderLineItems', 'Order');
  const number = String(FIRST_ORDER_NUMBER + j - 1);
  const { created, user, lines, subscriptions, unpaid } = contentOf(j, number, context);
  const order = clone(template);
  Object.assign(order, {
    number,
    lines,
    created_at: created,
    date_placed: created,
    updated_at: created,
    user: clone(user),
    order_status_url: `https://shop.example.com/orders/${number}/status/`,
    refunds: [],
    subscriptions,
    tags: j % 4 === 0 ? ['vip'] : [],
    is_test: false,
    transactions: [],
  });
  for (const address of [order.billing_address, order.shipping_address]) {
    if (address) Object.assign(address, { first_name: user.first_name, last_name: user.last_name });
  }
  const { total_incl_tax } = retotal(order);
  if (!unpaid) {
    const paid = (context.store.orders ?? []).filter((o) => o.transactions.length > 0).length;
    order.transactions = [compactPayment(template.transactions?.[0] ?? {}, paid + 1, total_incl_tax, created)];
    retotal(order);
  }
  return order;
}

const WRITES: Record<string, WriteOperation<StoredOrder>> = {
  addOrderLineItems: {
    kind: 'write',
    param: 'number',
    run: ({ state, record, body, now, limits }) => {
      const sent = body.lines as DefaultSchemas['OrderAddLineItemsRequest']['lines'];
      if (sent.length === 0) return refuse('body.lines', 'minItems', 'add at least one line');
      if (sent.length > limits.maxLinesPerRequest) {
        return refuse(
          'body.lines',
          'maxLinesPerRequest',
          `at most ${limits.maxLinesPerRequest} lines per request (the mock's limit maxLinesPerRequest); ${sent.length} sent`,
        );
      }
      const bad = sent.findIndex((line) => !(Number(line.quantity) >= 1));
      if (bad !== -1)
        return refuse(`body.lines[${bad}].quantity`, 'minimum', `must be at least 1, got ${sent[bad]?.quantity}`);
      const lines = record.lines ?? [];
      if (lines.length + sent.length > limits.maxLinesPerOrder) {
        return refuse(
          'body.lines',
          'maxLinesPerOrder',
          `order ${record.number} holds ${lines.length} lines; an order holds at most ${limits.maxLinesPerOrder} (the mock's limit maxLinesPerOrder)`,
        );
      }
      const template = clone(lines[0] ?? {});
      let id = maxId(lines) + 1;
      let added = 0;
      for (const line of sent) {
        const product = productOf(line.product_id);
        added += product.price * line.quantity;
        lines.push(orderLine(template, { product, id: id++, quantity: line.quantity, created: now }));
      }
      record.lines = lines;
      const charge = pay(state, record, { type: 'sale', amount: money(added), now });
      return {
        ok: true,
        body: record,
        changes: [
          ['orders', record],
          ['transactions', charge],
        ],
      };
    },
  },
};

export const orders: DeclaredCollection<'orders'> = {
  name: 'orders',
  key: 'number',
  singular: 'order',
  schema: { component: 'Order' },
  operations: {
    ...WRITES,
    getOrderFulfillments: {
      kind: 'get',
      param: 'number',
      serves: 'fulfillments',
      // A recording may hold an order's fulfillment without the order: the fulfillment shows it exists.
      lookup: (state, number) => {
        const fulfillment = state.list('fulfillments').find((f) => f.order_number === String(number));
        if (fulfillment) return fulfillment;
        return state.get('orders', number) ? { missing: `Order ${number} has no fulfillment yet.` } : undefined;
      },
    },
  },
  atExampleKey: (key, context) => {
    const order = copyAtKey(orders, key, context, (r) => (r.subscriptions ?? []).length === 0);
    order.lines = (order.lines ?? []).map((line, k) => ({ ...line, id: lineId(key, k) }));
    order.transactions = [];
    retotal(order);
    return [['orders', order]];
  },
  relations: [
    { name: 'subscriptions', to: 'subscriptions', keys: (r) => (r.subscriptions ?? []).map((s) => s.id) },
    { name: 'transactions', to: 'transactions', keys: (r) => (r.transactions ?? []).map((t) => t.id) },
  ],
  seed: { count: ORDER_COUNT, record: seedOrder },
  view: (record, { list }) => ({
    ...record,
    fulfillments: list('fulfillments').filter((f) => f.order_number === record.number),
  }),
};
