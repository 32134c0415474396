/**
 * Transactions (full form) 1..80: payments of subscriptions' orders; 1..25 belong to subscription 1,
 * the rest round robin over 2..45; every 4th is an `authorization` (capturable), the others `sale`.
 * Captures, retries and renewals add more (next id).
 */
import { at, day } from './catalogue.ts';
import type { CollectionDecl, Rec } from './types.ts';

export const transactions: CollectionDecl = {
  name: 'transactions',
  key: 'id',
  singular: 'transaction',
  schema: { operationId: 'listSubscriptionTransactions', shape: 'item' },
  servedBy: ['listSubscriptionTransactions', 'captureTransaction'],
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
    count: 80,
    record: (i, { prng, templates, store }) => {
      const subscriptionCount = store.subscriptions?.length ?? 1;
      const subId = i <= 25 ? 1 : 2 + ((i - 26) % (subscriptionCount - 1));
      const sub = store.subscriptions?.[subId - 1] as Rec;
      const ref = sub.orders[(i - 1) % sub.orders.length];
      const amount = sub.total;
      const authorization = i % 4 === 0;
      const record = templates.of('listSubscriptionTransactions').results?.[0] ?? {};
      Object.assign(record, {
        id: i,
        amount,
        amount_available_for_refund: authorization ? '0.00' : amount,
        date_created: at(prng.int(0, 140) * day + prng.int(0, day)),
        order: ref.order_number,
        parent_id: null,
        status: 'succeeded',
        type: authorization ? 'authorization' : 'sale',
        subscription: { billing_cycle: ref.billing_cycle, id: subId },
        user: structuredClone(sub.user),
        payment_method: sub.payment_method === 'bankcard' ? 'bankcard' : record.payment_method,
        external_id: `ch_${prng.chars(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
      });
      if (record.report_values) record.report_values.amount = amount;
      return record;
    },
  },
};
