/**
 * Transactions (full form): one per payment of an order, with the same id as the order's compact
 * payment (the order lists it in `transactions`, the transaction names the order and, for a
 * renewal, the subscription and billing cycle). Every 4th is an `authorization` (capturable), the
 * others `sale`. Captures, retries and renewals add more (next id), each also listed by its order.
 * Their list under a subscription; the capture of an authorization, with its row of the state table.
 */
import { clone, refuse } from '../writes/common.ts';
import { pay } from '../writes/payments.ts';
import { at, day, money } from './catalogue.ts';
import { copyAtKey } from './example-records.ts';
import { PAYMENT_COUNT } from './orders.ts';
import type { StoredTransaction } from './records.ts';
import type { AnyRecord, DeclaredCollection, StoreReader, WriteOperation } from './types.ts';

/** What is left to capture of an authorization: its amount minus the captures its order lists. */
function leftOf(state: StoreReader, authorization: StoredTransaction, order: AnyRecord | undefined): number {
  const captures = order
    ? (order.transactions as AnyRecord[]).filter((t) => t.parent_id === authorization.id && t.type === 'capture')
    : state.list('transactions').filter((t) => t.parent_id === authorization.id && t.type === 'capture');
  const captured = captures.reduce((sum, t) => sum + Number(t.amount), 0);
  return Math.round((Number(authorization.amount) - captured) * 100) / 100;
}

const WRITES: Record<string, WriteOperation<StoredTransaction>> = {
  captureTransaction: {
    kind: 'write',
    param: 'id',
    state: {
      accepts: 'an `authorization` transaction',
      refuses: (r) =>
        r.type === 'authorization'
          ? undefined
          : `is a ${r.type}, not an authorization; only authorizations can be captured`,
    },
    run: ({ state, record, body, now }) => {
      const found = record.order === null || record.order === undefined ? undefined : state.get('orders', record.order);
      const order = found ? clone(found) : undefined;
      const left = leftOf(state, record, order);
      if (left < 0.01) {
        return refuse(
          'path.id',
          'state',
          `transaction ${record.id} is fully captured (authorized ${record.amount}); nothing is left to capture`,
        );
      }
      const requested = body?.amount ?? null;
      const amount = requested === null ? left : Number(requested);
      if (!(amount >= 0.01) || amount > left + 1e-9) {
        return refuse(
          'body.amount',
          amount > left ? 'maximum' : 'minimum',
          `must be from 0.01 to ${money(left)}, what is left to capture of transaction ${record.id} (authorized ${record.amount})`,
        );
      }
      if (!order) {
        const capture = {
          ...clone(record),
          id: state.nextKey('transactions'),
          amount: money(amount),
          amount_available_for_refund: money(amount),
          date_created: now,
          parent_id: record.id,
          type: 'capture',
          status: 'succeeded',
        };
        return { ok: true, body: capture, changes: [['transactions', capture]] };
      }
      const capture = pay(state, order, { type: 'capture', amount: money(amount), now, parent: record });
      return {
        ok: true,
        body: capture,
        changes: [
          ['transactions', capture],
          ['orders', order],
        ],
      };
    },
  },
};

export const transactions: DeclaredCollection<'transactions'> = {
  name: 'transactions',
  key: 'id',
  singular: 'transaction',
  schema: { component: 'Transaction' },
  operations: {
    listSubscriptionTransactions: {
      kind: 'list',
      filters: [],
      notApplied: [],
      parent: { collection: 'subscriptions', param: 'id', owns: (r, key) => r.subscription?.id === key },
    },
    ...WRITES,
  },
  // An authorization of a new order (its amount is the order's total, set once the order exists).
  atExampleKey: (key, context) => {
    const authorization = copyAtKey(transactions, key, context);
    Object.assign(authorization, {
      type: 'authorization',
      amount: null,
      amount_available_for_refund: '0.00',
      parent_id: null,
      status: 'succeeded',
      order: String(context.freeKey('orders')),
      subscription: null,
    });
    return [['transactions', authorization]];
  },
  relations: [
    { name: 'order', to: 'orders', keys: (r) => (r.order === null || r.order === undefined ? [] : [r.order]) },
    { name: 'subscription', to: 'subscriptions', keys: (r) => (r.subscription?.id ? [r.subscription.id] : []) },
    {
      name: 'parent',
      to: 'transactions',
      keys: (r) => (r.parent_id === null || r.parent_id === undefined ? [] : [r.parent_id]),
    },
  ],
  seed: {
    count: PAYMENT_COUNT,
    record: (i, { prng, templates, store }) => {
      const order = (store.orders ?? []).find((o) => o.transactions?.[0]?.id === i) as AnyRecord;
      const payment = order.transactions[0] as AnyRecord;
      const subscription = order.subscriptions?.[0] ?? null;
      const owner = subscription ? store.subscriptions?.[subscription.id - 1] : undefined;
      const record = templates.recordOf('listSubscriptionTransactions', 'Transaction');
      const amount = payment.amount;
      Object.assign(record, {
        id: i,
        amount,
        amount_available_for_refund: payment.type === 'authorization' ? '0.00' : amount,
        date_created: payment.date_created ?? at(prng.int(0, 140) * day),
        order: order.number,
        parent_id: null,
        status: 'succeeded',
        type: payment.type,
        subscription: subscription ? { billing_cycle: subscription.billing_cycle, id: subscription.id } : null,
        user: structuredClone(order.user ?? null),
        payment_method: owner?.payment_method === 'bankcard' ? 'bankcard' : record.payment_method,
        external_id: `ch_${prng.chars(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
      });
      if (record.report_values) record.report_values.amount = amount;
      return record;
    },
  },
};
