/**
 * The renewals of the seeded subscriptions: how many subscriptions, each one's billing cycles and
 * status, the order numbers they renewed into (the first orders of the store, in subscription
 * order) and which still owe their latest order. Subscriptions (./subscriptions.ts) and orders
 * (./orders.ts) are seeded from this one plan, so both sides of the relation agree.
 */
import { FIRST_ORDER_NUMBER, SUBSCRIPTION_STATUSES } from './catalogue.ts';

export const SUBSCRIPTION_COUNT = 45;
/** Orders (billing cycles) of seeded subscription `i`: subscription 1 has 25 (three pages of transactions). */
export const cyclesOf = (i: number): number => (i === 1 ? 25 : 1 + (i % 3));
const offsets = [0];
for (let i = 1; i <= SUBSCRIPTION_COUNT; i++) offsets.push((offsets[i - 1] as number) + cyclesOf(i));
/** Orders renewed from the seeded subscriptions: the first ones of the store, in subscription order. */
export const SUBSCRIPTION_ORDERS = offsets[SUBSCRIPTION_COUNT] as number;
/** The order number of seeded subscription `i`'s billing cycle `k`. */
export const orderNumberOf = (i: number, k: number): string =>
  String(FIRST_ORDER_NUMBER + (offsets[i - 1] as number) + k - 1);
/** The seeded subscription and billing cycle of the `j`-th order, if it was renewed from one. */
export function ownerOfOrder(j: number): { id: number; cycle: number } | undefined {
  if (j > SUBSCRIPTION_ORDERS) return undefined;
  let i = 1;
  while ((offsets[i] as number) < j) i++;
  return { id: i, cycle: j - (offsets[i - 1] as number) };
}
/** A subscription whose latest order is still unpaid (its renewal payment failed, or is being retried). */
export const OWING = new Set(['past_due', 'retrying']);
/** The status of seeded subscription `i`: the five states in turn. */
export const statusOf = (i: number): string => SUBSCRIPTION_STATUSES[(i - 1) % SUBSCRIPTION_STATUSES.length] as string;
/** Seeded subscriptions that owe their latest order. */
export const OWING_SUBSCRIPTIONS = Array.from({ length: SUBSCRIPTION_COUNT }, (_, i) => statusOf(i + 1)).filter((s) =>
  OWING.has(s),
).length;
