/**
 * Renew and retry (the state table's rows: ../transitions.ts). A renewal is a new order with the
 * subscription's lines, paid at once by an active subscription (a `sale` listed by its
 * transactions) and left unpaid by a past_due or retrying one; a retry pays the subscription's
 * latest unpaid order and makes it active.
 */
import { orderLine, productOf, retotal } from '../model/catalogue.ts';
import type { Rec } from '../model/index.ts';
import { lineId } from '../model/orders.ts';
import type { WriteDecl } from '../resources.ts';
import type { State } from '../state.ts';
import { clone, refuse } from './common.ts';
import { pay } from './payments.ts';

/** The next renewal date: one interval (in days, 30 when the interval is not in days) later. */
function nextRenewal(record: Rec, now: string): string {
  const days = record.interval === 'day' ? Number(record.interval_count) || 30 : 30;
  const base = Date.parse(record.next_renewal_date ?? now);
  return new Date((Number.isNaN(base) ? Date.parse(now) : base) + days * 86_400_000)
    .toISOString()
    .replace('.000Z', 'Z');
}

/** A renewal order of `record` for billing cycle `cycle`, unpaid. */
function renewalOrder(state: State, record: Rec, cycle: number, now: string): Rec {
  const number = String(state.nextKey('orders'));
  const previous = state.get('orders', record.orders?.at(-1)?.order_number ?? '') ?? state.list('orders')[0] ?? {};
  const order: Rec = clone(previous);
  const template = (previous.lines?.[0] ?? {}) as Rec;
  order.lines = ((record.lines ?? []) as Rec[]).map((line, k) =>
    orderLine(template, productOf(Number(line.product_id)), lineId(number, k), line.quantity, now),
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
  retotal(order);
  return order;
}

export const SUBSCRIPTION_WRITES: Record<string, WriteDecl> = {
  renewSubscription: {
    kind: 'write',
    collection: 'subscriptions',
    param: 'id',
    effect:
      'Creates a renewal order (next order number, the subscription’s lines), appends `{billing_cycle, order_number}` to `orders`, `num_orders` + 1, `next_renewal_date` + one interval. An active subscription pays it at once (a `sale` listed by the order and by `/subscriptions/{id}/transactions/`); a past_due or retrying one leaves it unpaid (`total_outstanding` = its total) for a retry.',
    run: ({ state, record, now }) => {
      const cycle = (Number(record.num_orders) || 0) + 1;
      const order = renewalOrder(state, record, cycle, now);
      const changes: [string, Rec][] = [['orders', order]];
      if (record.status === 'active')
        changes.push(['transactions', pay(state, order, { type: 'sale', amount: order.total_incl_tax, now })]);
      record.orders = [...(record.orders ?? []), { billing_cycle: cycle, order_number: order.number }];
      record.num_orders = cycle;
      record.next_renewal_date = nextRenewal(record, now);
      changes.push(['subscriptions', record]);
      return { ok: true, body: record, changes };
    },
  },
  retrySubscription: {
    kind: 'write',
    collection: 'subscriptions',
    param: 'id',
    effect:
      'A payment retry that succeeds: pays the subscription’s latest unpaid order with a `sale` (listed by the order and by `/subscriptions/{id}/transactions/`) and sets `status` to `active`. No unpaid order → 422 naming `path.id`.',
    run: ({ state, record, now }) => {
      const refs = (record.orders ?? []) as Rec[];
      const unpaid = refs
        .map((ref) => state.get('orders', ref.order_number))
        .filter((o): o is Rec => o !== undefined && Number(o.total_outstanding) > 0)
        .at(-1);
      if (!unpaid) return refuse('path.id', 'state', `subscription ${record.id} has no unpaid order to retry`);
      const order = clone(unpaid);
      const payment = pay(state, order, { type: 'sale', amount: order.total_outstanding, now });
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
