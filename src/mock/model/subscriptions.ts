/**
 * Subscriptions 1..45: status cycling through the five states, lines from the catalogue, the orders
 * they renewed into. Stored in the flat-line shape; a version whose subscription lines nest a
 * `product` and a `stockrecord` (read from its bundle's example, never from its name) sees them
 * nested, derived from the flat fields and the product's stock record (./subscription-lines.ts).
 * Their count, billing cycles and statuses are the renewal plan the orders share (./renewals.ts).
 * Their list and its filters;
 * renew and retry with their rows of the state table: a renewal is a new order with the
 * subscription's lines, paid at once by an active subscription (a `sale` listed by its
 * transactions) and left unpaid by a past_due or retrying one; a retry pays the subscription's
 * latest unpaid order and makes it active.
 */

import { clone, refuse } from '../writes/common.ts';
import { pay } from '../writes/payments.ts';
import {
  at,
  CARD_TYPES,
  day,
  dayOf,
  inTurn,
  money,
  PAYMENT_METHODS,
  PRODUCTS,
  productOf,
  UTM_SOURCES,
} from './catalogue.ts';
import { copyAtKey } from './example-records.ts';
import { lineId, type OrderTotals, orderLine, retotal } from './order-arithmetic.ts';
import type { StoredOrder, StoredSubscription } from './records.ts';
import { cyclesOf, orderNumberOf, SUBSCRIPTION_COUNT, statusOf } from './renewals.ts';
import { nestedLine, nestedLineTemplate, productIdOf } from './subscription-lines.ts';
import type { AnyRecord, DeclaredCollection, FilterDecl, SeedContext, StoreReader, WriteOperation } from './types.ts';

function seedSubscription(i: number, { prng, templates, users }: SeedContext): StoredSubscription {
  const status = statusOf(i);
  const user = prng.pick(users);
  const created = at(prng.int(0, 60) * day + prng.int(0, day));
  const intervalCount = prng.pick([14, 30, 60]);
  const sub = templates.recordOf('listSubscriptions', 'Subscription');
  const lineTemplate = sub.lines?.[0] ?? {};
  const products = [prng.pick(PRODUCTS), ...(i % 4 === 0 ? [prng.pick(PRODUCTS)] : [])];
  sub.lines = products.map((p, k) => ({
    ...clone(lineTemplate),
    id: i * 10 + k,
    metadata: {},
    price: money(p.price),
    product_id: p.id,
    product_image: `https://cdn.example.com/products/${p.slug}.jpg`,
    product_title: p.title,
    product_url: `https://shop.example.com/products/${p.slug}/`,
    quantity: prng.int(1, 3),
    sku: p.sku,
    variant_id: p.variant_id,
    variant_title: p.variant_title,
  }));
  const cycles = cyclesOf(i);
  const total = sub.lines.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0);
  Object.assign(sub, {
    id: i,
    status,
    user: clone(user),
    date_created: created,
    frequency: `Every ${intervalCount} days`,
    interval: 'day',
    interval_count: intervalCount,
    is_test: i % 9 === 0,
    num_lines: sub.lines.length,
    num_orders: cycles,
    orders: Array.from({ length: cycles }, (_, k) => ({ billing_cycle: k + 1, order_number: orderNumberOf(i, k + 1) })),
    next_renewal_date: at(150 * day + prng.int(0, 60) * day),
    payment_method: PAYMENT_METHODS[(i - 1) % PAYMENT_METHODS.length],
    payment_details: { card_type: CARD_TYPES[(i - 1) % CARD_TYPES.length] },
    // Never null (the staging recording, openapi/changelogs): a subscription not canceled has an empty one.
    cancel_reason: status === 'canceled' ? prng.pick(['too_expensive', 'not_needed', 'other']) : '',
    cancel_reason_other_message: null,
    shipping_price: '4.90',
    total: money(total + 4.9),
    is_tax_known: i % 2 === 1,
  });
  if (sub.attribution) {
    sub.attribution.utm_source = inTurn(UTM_SOURCES, i - 1);
    sub.attribution.utm_campaign = i % 2 ? 'spring_2024' : null;
    sub.attribution.affiliate = i % 5 === 0 ? 'slowfashionblog' : null;
  }
  for (const address of [sub.billing_address, sub.shipping_address]) {
    if (address) Object.assign(address, { first_name: user.first_name, last_name: user.last_name });
  }
  return sub;
}

/** The next renewal date: one interval (in days, 30 when the interval is not in days) later. */
function nextRenewal(record: StoredSubscription, now: string): string {
  const days = record.interval === 'day' ? Number(record.interval_count) || 30 : 30;
  const base = Date.parse(record.next_renewal_date ?? now);
  return new Date((Number.isNaN(base) ? Date.parse(now) : base) + days * 86_400_000)
    .toISOString()
    .replace('.000Z', 'Z');
}

/** A renewal order of `record` for billing cycle `cycle`, unpaid. */
function renewalOrder(
  state: StoreReader,
  record: StoredSubscription,
  cycle: number,
  now: string,
): { order: StoredOrder; number: string; totals: OrderTotals } {
  const number = String(state.nextKey('orders'));
  const previous = state.get('orders', record.orders?.at(-1)?.order_number ?? '') ?? state.list('orders')[0];
  // A store without orders renews into an order of the subscription's fields only.
  const order = clone(previous ?? ({} as StoredOrder));
  const template: AnyRecord = previous?.lines?.[0] ?? {};
  order.lines = (record.lines ?? []).map((line, k) =>
    orderLine(template, {
      product: productOf(Number(line.product_id)),
      id: lineId(number, k),
      quantity: line.quantity,
      created: now,
    }),
  );
  Object.assign(order, {
    number,
    created_at: now,
    date_placed: now,
    updated_at: now,
    subscriptions: [{ billing_cycle: cycle, id: record.id }],
    order_status_url: `https://shop.example.com/orders/${number}/status/`,
    refunds: [],
    transactions: [],
  });
  return { order, number, totals: retotal(order) };
}

const SUBSCRIPTION_FILTERS: FilterDecl<StoredSubscription>[] = [
  { param: 'status', kind: 'any', get: (r) => r.status },
  { param: 'payment_method', kind: 'any', get: (r) => r.payment_method },
  { param: 'card_type', kind: 'any', get: (r) => r.payment_details?.card_type },
  { param: 'is_test', kind: 'bool', get: (r) => r.is_test },
  { param: 'order_number', kind: 'eq', get: (r) => (r.orders ?? []).map((o) => o.order_number) },
  { param: 'customer_email', kind: 'eq', get: (r) => r.user?.email },
  { param: 'customer_phone_number', kind: 'eq', get: (r) => r.user?.phone_number },
  { param: 'cancel_reason', kind: 'eq', get: (r) => r.cancel_reason },
  { param: 'next_renewal_date_from', kind: 'from', get: (r) => dayOf(r.next_renewal_date) },
  { param: 'next_renewal_date_to', kind: 'to', get: (r) => dayOf(r.next_renewal_date) },
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
  ).map((name): FilterDecl<StoredSubscription> => ({ param: name, kind: 'eq', get: (r) => r.attribution?.[name] })),
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

const WRITES: Record<string, WriteOperation<StoredSubscription>> = {
  renewSubscription: {
    kind: 'write',
    param: 'id',
    state: {
      accepts: 'subscription `status` active, past_due or retrying (paused and canceled do not renew)',
      refuses: (r) =>
        r.status === 'canceled' || r.status === 'paused'
          ? `has status ${r.status}; only an active, past_due or retrying subscription renews`
          : undefined,
    },
    run: ({ state, record, now }) => {
      const cycle = (Number(record.num_orders) || 0) + 1;
      const { order, number, totals } = renewalOrder(state, record, cycle, now);
      const changes: [string, AnyRecord][] = [['orders', order]];
      if (record.status === 'active')
        changes.push(['transactions', pay(state, order, { type: 'sale', amount: totals.total_incl_tax, now })]);
      record.orders = [...(record.orders ?? []), { billing_cycle: cycle, order_number: number }];
      record.num_orders = cycle;
      record.next_renewal_date = nextRenewal(record, now);
      changes.push(['subscriptions', record]);
      return { ok: true, body: record, changes };
    },
  },
  retrySubscription: {
    kind: 'write',
    param: 'id',
    state: {
      accepts: 'subscription `status` past_due or retrying',
      refuses: (r) =>
        r.status === 'past_due' || r.status === 'retrying'
          ? undefined
          : `has status ${r.status}; only a past_due or retrying subscription has a payment to retry`,
    },
    run: ({ state, record, now }) => {
      const refs = record.orders ?? [];
      const unpaid = refs
        .map((ref) => state.get('orders', ref.order_number))
        .filter((o) => o !== undefined && Number(o.total_outstanding) > 0)
        .at(-1);
      if (!unpaid) return refuse('path.id', 'state', `subscription ${record.id} has no unpaid order to retry`);
      const order = clone(unpaid);
      // Owing: its total_outstanding is a decimal string above 0 (the filter above).
      const payment = pay(state, order, { type: 'sale', amount: String(order.total_outstanding), now });
      record.status = 'active';
      return {
        ok: true,
        body: record,
        changes: [
          ['orders', order],
          ['transactions', payment],
          ['subscriptions', record],
        ],
      };
    },
  },
};

export const subscriptions: DeclaredCollection<'subscriptions'> = {
  name: 'subscriptions',
  key: 'id',
  singular: 'subscription',
  schema: { component: 'Subscription' },
  operations: {
    listSubscriptions: { kind: 'list', filters: SUBSCRIPTION_FILTERS, notApplied: SUBSCRIPTION_NOT_APPLIED },
    ...WRITES,
  },
  // A past_due subscription (renew leaves its new order unpaid, retry pays it) with orders of its own.
  atExampleKey: (key, context) => {
    const sub = copyAtKey(subscriptions, key, context, (r) => r.status === 'past_due');
    const first = context.freeKey('orders');
    const refs = (sub.orders ?? [{}]) as AnyRecord[];
    sub.orders = refs.map((_, k) => ({ billing_cycle: k + 1, order_number: String(first + k) }));
    sub.num_orders = sub.orders.length;
    return [['subscriptions', sub]];
  },
  relations: [{ name: 'orders', to: 'orders', keys: (r) => (r.orders ?? []).map((o) => o.order_number) }],
  seed: { count: SUBSCRIPTION_COUNT, record: seedSubscription },
  // The related stock records are read with `first`, so the view's cached text knows what it was
  // built from (../view-cache.ts).
  view: (record, context) => {
    const template = nestedLineTemplate(context.bundle);
    if (!template) return record;
    return {
      ...record,
      is_tax_known: record.is_tax_known ?? true,
      lines: ((record.lines ?? []) as AnyRecord[]).map((line) =>
        nestedLine(line, template, record.currency, context.first('stockrecords', productIdOf, line.product_id)),
      ),
    };
  },
};
