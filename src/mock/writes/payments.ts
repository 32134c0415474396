/**
 * A payment of an order, made by a write (renew, retry, add-line-items, capture): one record of
 * `transactions` (next id) and its compact copy appended to the order's `transactions`, whose
 * totals are recomputed. Both sides of the relation change together.
 */
import { compactSale, retotal } from '../model/order-arithmetic.ts';
import type { StoredOrder, StoredTransaction } from '../model/records.ts';
import type { AnyRecord, StoreReader } from '../model/types.ts';
import { clone } from './common.ts';

export interface Payment {
  type: 'sale' | 'capture';
  amount: string;
  now: string;
  /** The authorization a capture settles. */
  parent?: StoredTransaction;
}

/** Pays `order` (changed in place: it is the write's private copy); returns the new transaction. */
export function pay(state: StoreReader, order: StoredOrder, payment: Payment): StoredTransaction {
  const id = state.nextKey('transactions');
  const template = payment.parent ?? state.get('transactions', 1) ?? state.list('transactions')[0];
  const subscription = order.subscriptions?.[0] ?? null;
  // Every field of a stored transaction (the template's) set anew or copied: a store holding none
  // gives an empty template, and the contract check of the write's answer says what it lacks.
  const transaction: StoredTransaction = {
    ...clone(template ?? ({} as StoredTransaction)),
    id,
    amount: payment.amount,
    amount_available_for_refund: payment.amount,
    date_created: payment.now,
    order: order.number,
    parent_id: payment.parent?.id ?? null,
    status: 'succeeded',
    type: payment.type,
    subscription: subscription ? { billing_cycle: subscription.billing_cycle, id: subscription.id } : null,
    // An order without a customer (a recorded one may have none) pays with `user: null`, which the
    // contract's Transaction does not allow: the type says what the record should be, not this case.
    user: clone(order.user ?? null) as StoredTransaction['user'],
  };
  if (transaction.report_values) transaction.report_values = { ...transaction.report_values, amount: payment.amount };
  const compactTemplate = order.transactions?.[0] ?? compactOfAnyOrder(state);
  const compact = compactSale(compactTemplate, id, payment.amount, payment.now);
  compact.type = payment.type;
  compact.parent_id = transaction.parent_id;
  order.transactions = [...(order.transactions ?? []), compact];
  order.updated_at = payment.now;
  retotal(order);
  return transaction;
}

function compactOfAnyOrder(state: StoreReader): AnyRecord {
  for (const order of state.list('orders')) if (order.transactions?.[0]) return order.transactions[0];
  return {};
}
