/** Capture of an authorization (the state table's row: ../transitions.ts). */
import { money } from '../model/catalogue.ts';
import type { Rec } from '../model/index.ts';
import type { WriteDecl } from '../resources.ts';
import type { State } from '../state.ts';
import { clone, refuse } from './common.ts';
import { pay } from './payments.ts';

/** What is left to capture of an authorization: its amount minus the captures its order lists. */
function leftOf(state: State, authorization: Rec, order: Rec | undefined): number {
  const captures = order
    ? (order.transactions as Rec[]).filter((t) => t.parent_id === authorization.id && t.type === 'capture')
    : state.list('transactions').filter((t) => t.parent_id === authorization.id && t.type === 'capture');
  const captured = captures.reduce((sum, t) => sum + Number(t.amount), 0);
  return Math.round((Number(authorization.amount) - captured) * 100) / 100;
}

export const TRANSACTION_WRITES: Record<string, WriteDecl> = {
  captureTransaction: {
    kind: 'write',
    collection: 'transactions',
    param: 'id',
    effect:
      'Adds a `capture` transaction (next id, `parent_id` = the authorization, listed by its order, whose `total_outstanding` goes down) of `amount`, or of what is left to capture when omitted/null. Nothing left to capture → 422 naming `path.id`; `amount` above what is left or below 0.01 → 422 naming `body.amount`.',
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
