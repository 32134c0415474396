/**
 * The store's invariants, declared next to the model (./model) and checked by the tests
 * (test/mock/invariants.test.ts, after every write of random sequences). Each is a check of one
 * record against the records it names, both ways, so that checking the records a write changed
 * (and those they name) checks the write: {@link checkRecords}. docs/mock.md lists them.
 */
import { PRODUCTS, productFrom } from './model/catalogue.ts';
import {
  type AnyRecord,
  type CollectionName,
  collectionOf,
  MODEL,
  type RecordReader,
  type StoreRecords,
} from './model/index.ts';
import { paymentStatusOf, retotal } from './model/order-arithmetic.ts';
import { supportedActions } from './transitions.ts';

/** A check of one record of a collection against the state it is in (a token's, or the seed's). */
type Check<R> = (record: R, store: RecordReader) => string | undefined;

const same = (a: { id: number }, b: { id: number }) => Number(a.id) === Number(b.id);
const TOTALS = ['total_incl_tax', 'total_excl_tax', 'total_tax', 'total_cost', 'total_outstanding'] as const;

/** Invariants per collection: name → check (a message when broken). */
export const INVARIANTS: { [C in CollectionName]?: Record<string, Check<StoreRecords[C]>> } = {
  subscriptions: {
    'its orders name it back with the billing cycle': (sub, store) => {
      for (const ref of sub.orders ?? []) {
        const order = store.get('orders', ref.order_number);
        if (!order?.subscriptions?.some((s) => s.id === sub.id && s.billing_cycle === ref.billing_cycle)) {
          return `order ${ref.order_number} does not name subscription ${sub.id} (cycle ${ref.billing_cycle})`;
        }
      }
      return sub.num_orders === (sub.orders ?? []).length
        ? undefined
        : `num_orders ${sub.num_orders} but ${(sub.orders ?? []).length} orders`;
    },
  },
  orders: {
    'its subscriptions list it': (order, store) => {
      for (const s of order.subscriptions ?? []) {
        const sub = store.get('subscriptions', s.id);
        if (!sub?.orders?.some((r) => r.order_number === order.number && r.billing_cycle === s.billing_cycle)) {
          return `subscription ${s.id} does not list order ${order.number}`;
        }
      }
      return undefined;
    },
    'its transactions are records of transactions naming it': (order, store) => {
      for (const compact of order.transactions ?? []) {
        const full = store.get('transactions', compact.id);
        if (
          !full ||
          String(full.order) !== String(order.number) ||
          full.amount !== compact.amount ||
          full.type !== compact.type
        ) {
          return `transaction ${compact.id} listed by order ${order.number} is not a transaction of it`;
        }
      }
      return undefined;
    },
    'its totals add up from lines, shipping, discount and payments': (order) => {
      const again = structuredClone(order);
      retotal(again);
      const wrong = TOTALS.find((field) => again[field] !== order[field]);
      return wrong ? `${wrong} is ${order[wrong]}, its lines and payments make ${again[wrong]}` : undefined;
    },
    'its payment status follows the money: paid when nothing is outstanding, pending while some is': (order) => {
      const expected = paymentStatusOf(order.total_outstanding);
      return order.payment_status === expected
        ? undefined
        : `payment_status is ${order.payment_status} with total_outstanding ${order.total_outstanding} (expected ${expected})`;
    },
  },
  transactions: {
    'its order lists it': (t, store) => {
      if (t.order === null || t.order === undefined) return undefined;
      const order = store.get('orders', t.order);
      return order?.transactions?.some((c) => same(c, t))
        ? undefined
        : `order ${t.order} does not list transaction ${t.id}`;
    },
    'its subscription has its order in that billing cycle': (t, store) => {
      if (!t.subscription) return undefined;
      const sub = store.get('subscriptions', t.subscription.id);
      const ok = sub?.orders?.some(
        (r) => r.order_number === t.order && r.billing_cycle === t.subscription?.billing_cycle,
      );
      return ok
        ? undefined
        : `subscription ${t.subscription.id} has no order ${t.order} in cycle ${t.subscription.billing_cycle}`;
    },
    'a capture settles an authorization of its order, never beyond it': (t, store) => {
      if (t.type !== 'capture') return undefined;
      const parent = t.parent_id === null ? undefined : store.get('transactions', t.parent_id);
      if (parent?.type !== 'authorization' || String(parent.order) !== String(t.order))
        return `capture ${t.id} settles no authorization of order ${t.order}`;
      const order = t.order === null ? undefined : store.get('orders', t.order);
      const captured = (order?.transactions ?? []).filter((c) => c.type === 'capture' && c.parent_id === parent.id);
      const sum = captured.reduce((total, c) => total + Math.round(Number(c.amount) * 100), 0);
      return sum <= Math.round(Number(parent.amount) * 100) ? undefined : `captures of ${parent.id} exceed its amount`;
    },
  },
  fulfillmentOrders: {
    'its line items are lines of its order': (fo, store) => lineItemsOf(fo, store),
    'supported_actions are what the writes accept': (fo) =>
      JSON.stringify(fo.supported_actions) === JSON.stringify(supportedActions(fo))
        ? undefined
        : `supported_actions ${JSON.stringify(fo.supported_actions)}, the state table says ${JSON.stringify(supportedActions(fo))}`,
  },
  fulfillments: {
    'its line items are lines of its order': (f, store) => lineItemsOf(f, store),
  },
  giftCards: {
    'its balance is between 0 and its initial amount, at least 0.01': (card) =>
      Number(card.initial) >= 0.01 && Number(card.balance) >= 0 && Number(card.balance) <= Number(card.initial)
        ? undefined
        : `initial ${card.initial}, balance ${card.balance}`,
  },
};

/** A fulfillment order's or a fulfillment's line items name lines of its order. */
function lineItemsOf(
  record: { order_number: string; line_items: { id: number; order_line_id: number }[] },
  store: RecordReader,
): string | undefined {
  const order = store.get('orders', record.order_number);
  if (!order) return `order ${record.order_number} does not exist`;
  const ids = new Set((order.lines ?? []).map((l) => l.id));
  const stray = (record.line_items ?? []).find((item: AnyRecord) => !ids.has(item.order_line_id));
  return stray
    ? `line item ${stray.id} names line ${stray.order_line_id}, not a line of order ${order.number}`
    : undefined;
}

/** Products sit in categories that fit them (the catalogue's, and those of every line shown). */
export function categoryViolations(store: RecordReader): string[] {
  const lines = [
    ...PRODUCTS.map((p) => ({ product_id: p.id, product_title: p.title, price: p.price })),
    ...store.list('subscriptions').flatMap((s) => s.lines ?? []),
  ];
  return lines.flatMap((line) =>
    productFrom(line)
      .categories.filter((c) => !c.fits.test(String(line.product_title)))
      .map((c) => `product ${line.product_id} (${line.product_title}) is in category ${c.name}`),
  );
}

/** Broken invariants of the given records (every relation they name must resolve, too). */
export function checkRecords(store: RecordReader, records: [collection: string, record: AnyRecord][]): string[] {
  const out: string[] = [];
  for (const [collection, record] of records) {
    const decl = collectionOf(collection);
    const label = `${decl.singular} ${record[decl.key]}`;
    for (const relation of decl.relations) {
      for (const key of relation.keys(record)) {
        if (!store.get(relation.to, key)) out.push(`${label}: ${relation.name} ${key} does not exist`);
      }
    }
    // The records come tagged with their collection: its checks read them as its records.
    const checks = (INVARIANTS as Record<string, Record<string, Check<AnyRecord>> | undefined>)[collection];
    for (const [name, check] of Object.entries(checks ?? {})) {
      const broken = check(record, store);
      if (broken) out.push(`${label}: ${name}: ${broken}`);
    }
  }
  return out;
}

/** Every invariant over a whole state. */
export function checkStore(store: RecordReader): string[] {
  const records = MODEL.flatMap((c) => store.list(c.name).map((r): [string, AnyRecord] => [c.name, r]));
  return [...checkRecords(store, records), ...categoryViolations(store)];
}
