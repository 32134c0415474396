/**
 * Both sides of every relation, made whole after the example records join the generated ones
 * (./example-records.ts): a subscription's orders exist and name it back, each with its payment; a
 * transaction's order exists and lists it, and its parent exists; an order's listed transactions
 * exist; fulfillment orders, fulfillments and tickets name orders that exist, holding their lines.
 * Records made here follow the same rules as generated ones (../invariants.ts checks them all).
 */
import { productFrom } from './catalogue.ts';
import { compactSale, lineId, orderLine, retotal } from './order-arithmetic.ts';
import type { StoredOrder, StoredSubscription, StoredTransaction } from './records.ts';
import { OWING } from './renewals.ts';
import type { AnyRecord, StoreData, Templates } from './types.ts';

const clone = <T>(value: T): T => structuredClone(value);

/**
 * The store being linked, read through its records' types (generated and example records; an
 * example's field may still be missing, as an authorization's amount before it is linked).
 */
class Linker {
  readonly orders: Map<string, StoredOrder>;
  readonly transactions: Map<number, StoredTransaction>;
  constructor(
    readonly store: StoreData,
    readonly templates: Templates,
  ) {
    this.orders = new Map(this.records<StoredOrder>('orders').map((o) => [String(o.number), o]));
    this.transactions = new Map(this.records<StoredTransaction>('transactions').map((t) => [Number(t.id), t]));
  }

  /** The records of a collection, typed by the caller (its records, example ones included). */
  records<R>(collection: string): R[] {
    return (this.store[collection] ?? []) as R[];
  }

  /** Adds a record to a collection (made when absent). */
  add(collection: string, record: AnyRecord): void {
    this.store[collection] ??= [];
    this.store[collection].push(record);
  }

  /** A new order (unpaid): `lines` are `[line id, product line, quantity]`. */
  order(
    number: string,
    lines: [number, AnyRecord, number][],
    { created, user, subscriptions = [] }: { created: string; user: unknown; subscriptions?: AnyRecord[] },
  ): StoredOrder {
    const template = this.templates.recordOf('addOrderLineItems', 'Order');
    const lineTemplate = template.lines?.[0] ?? {};
    const order = Object.assign(clone(template), {
      number,
      lines: lines.map(([id, line, quantity]) =>
        orderLine(lineTemplate, { product: productFrom(line), id, quantity, created }),
      ),
      created_at: created,
      date_placed: created,
      updated_at: created,
      user: clone(user ?? template.user ?? null),
      order_status_url: `https://shop.example.com/orders/${number}/status/`,
      refunds: [],
      subscriptions,
      transactions: [],
      tags: [],
    });
    retotal(order);
    this.add('orders', order);
    this.orders.set(number, order);
    return order;
  }

  /** A full transaction of `order` from its compact form (or the fields given), listed by the order. */
  transaction(order: StoredOrder, fields: AnyRecord): StoredTransaction {
    const subscription = order.subscriptions?.[0] ?? null;
    const full = Object.assign(this.templates.recordOf('listSubscriptionTransactions', 'Transaction'), {
      amount_available_for_refund: fields.type === 'authorization' ? '0.00' : fields.amount,
      parent_id: null,
      status: 'succeeded',
      ...fields,
      order: order.number,
      subscription: subscription ? { billing_cycle: subscription.billing_cycle, id: subscription.id } : null,
      user: clone(order.user ?? null),
    });
    if (full.report_values) full.report_values.amount = full.amount;
    this.add('transactions', full);
    this.transactions.set(Number(full.id), full);
    this.listed(order, full);
    return full;
  }

  /** Makes `order` list `transaction` in its compact `transactions`. */
  listed(order: StoredOrder, transaction: StoredTransaction): void {
    if ((order.transactions ?? []).some((t) => t.id === transaction.id)) return;
    const compact = compactSale(
      this.templates.of('addOrderLineItems').transactions?.[0] ?? {},
      transaction.id,
      transaction.amount,
      transaction.date_created,
    );
    Object.assign(compact, {
      type: transaction.type,
      status: transaction.status,
      parent_id: transaction.parent_id ?? null,
    });
    order.transactions = [...(order.transactions ?? []), compact];
    retotal(order);
  }

  freeTransactionId(): number {
    let max = 0;
    for (const id of this.transactions.keys()) if (id > max) max = id;
    return max + 1;
  }
}

/** A subscription's orders: each exists, names it back, and is paid (but an owing one's latest). */
function linkSubscriptions(linker: Linker): void {
  const named = new Set(linker.records<StoredTransaction>('transactions').map((t) => String(t.order)));
  for (const sub of linker.records<StoredSubscription>('subscriptions')) {
    const refs = sub.orders ?? [];
    refs.forEach((ref, k) => {
      const ref_ = { billing_cycle: ref.billing_cycle, id: sub.id };
      let order = linker.orders.get(String(ref.order_number));
      if (!order) {
        const lines = (sub.lines ?? []).map((line, i): [number, AnyRecord, number] => [
          lineId(String(ref.order_number), i),
          line,
          line.quantity,
        ]);
        order = linker.order(String(ref.order_number), lines, {
          created: sub.date_created,
          user: sub.user,
          subscriptions: [ref_],
        });
        const owing = OWING.has(sub.status) && k === refs.length - 1;
        if (!owing && !named.has(String(ref.order_number)))
          linker.transaction(order, {
            id: linker.freeTransactionId(),
            type: 'sale',
            amount: order.total_incl_tax,
            date_created: sub.date_created,
          });
      } else if (!(order.subscriptions ?? []).some((s) => s.id === sub.id && s.billing_cycle === ref.billing_cycle)) {
        order.subscriptions = [...(order.subscriptions ?? []), ref_];
      }
    });
  }
}

/** Orders named by fulfillment orders, fulfillments and tickets exist, holding the lines they name. */
function linkNamedOrders(linker: Linker): void {
  const wanted = new Map<string, { lines: Map<number, AnyRecord>; created: string }>();
  const want = (number: unknown, created: string, items: AnyRecord[]) => {
    if (number === null || number === undefined || linker.orders.has(String(number))) return;
    const entry = wanted.get(String(number)) ?? { lines: new Map(), created };
    for (const item of items) entry.lines.set(Number(item.order_line_id), item);
    wanted.set(String(number), entry);
  };
  for (const fo of linker.store.fulfillmentOrders ?? []) want(fo.order_number, fo.created_at, fo.line_items ?? []);
  for (const f of linker.store.fulfillments ?? []) want(f.order_number, f.created_at, f.line_items ?? []);
  for (const ticket of linker.store.tickets ?? []) want(ticket.order, ticket.created_at, []);
  for (const t of linker.store.transactions ?? []) want(t.order, t.date_created, []);
  for (const [number, { lines, created }] of wanted) {
    const items: [number, AnyRecord, number][] = [...lines].map(([id, item]) => [id, item, Number(item.quantity) || 1]);
    if (items.length === 0)
      items.push([
        lineId(number, 0),
        { product_id: 1, product_title: 'Linen shirt', sku: 'LIN-SHIRT', price: 49.9 },
        1,
      ]);
    linker.order(number, items, { created, user: null });
  }
}

/** Transactions and orders list each other; a capture's authorization exists. */
function linkTransactions(linker: Linker): void {
  for (const t of [...linker.records<StoredTransaction>('transactions')]) {
    const order = linker.orders.get(String(t.order));
    if (!order) continue;
    // An authorization made for an example key takes its order's total.
    if (t.type === 'authorization' && (t.amount === null || t.amount === undefined)) {
      t.amount = order.total_incl_tax ?? t.amount;
      if (t.report_values) t.report_values.amount = t.amount;
    }
    if (t.parent_id !== null && t.parent_id !== undefined && !linker.transactions.has(Number(t.parent_id))) {
      linker.transaction(order, {
        id: t.parent_id,
        type: 'authorization',
        amount: order.total_incl_tax,
        date_created: t.date_created,
      });
    }
    linker.listed(order, t);
  }
  for (const order of linker.records<StoredOrder>('orders')) {
    for (const compact of [...(order.transactions ?? [])]) {
      if (!linker.transactions.has(Number(compact.id))) {
        linker.transaction(order, {
          id: compact.id,
          type: compact.type,
          amount: compact.amount,
          status: compact.status,
          parent_id: compact.parent_id ?? null,
          date_created: compact.date_created,
        });
      }
    }
  }
}

export function link(store: StoreData, templates: Templates): void {
  const linker = new Linker(store, templates);
  linkSubscriptions(linker);
  linkNamedOrders(linker);
  linkTransactions(linker);
}
