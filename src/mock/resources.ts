/**
 * The API as data: per operation, what the mock does with its store. Lists name their collection,
 * their filters (applied, or accepted and documented as not applied) and an optional scope; reads
 * by key name the collection and the path parameter; writes are small functions returning the
 * records they change and the response, so that the engine can check the response against the
 * contract before anything is stored (a refused request changes nothing). A new list operation is
 * one entry of {@link OPERATION_DECLS}. docs/mock.md documents every entry.
 */
import type { MockLimits } from './limits.ts';
import { money, orderLine, productOf, retotal } from './model/catalogue.ts';
import type { Rec } from './model/index.ts';
import { createPrng } from './prng.ts';
import { fieldRefusal, type Refusal } from './problems.ts';
import type { State } from './state.ts';

export type FilterKind = 'any' | 'eq' | 'bool' | 'from' | 'to';

export interface FilterDecl {
  param: string;
  kind: FilterKind;
  /** The record's value(s) the filter compares with (an array: any element may match). */
  get: (record: Rec) => unknown;
}

export interface ListDecl {
  kind: 'list';
  collection: string;
  filters: FilterDecl[];
  /** Filters of the contract the mock accepts but does not apply (their meaning is not shown). */
  notApplied: string[];
  /** Records of a parent (`/subscriptions/{id}/transactions/`): the parent must exist. */
  parent?: { collection: string; param: string; owns: (record: Rec, parentKey: string | number) => boolean };
}

export interface GetDecl {
  kind: 'get';
  collection: string;
  /** Path parameter holding the key; none for a singleton (the whole collection is the body). */
  param?: string;
  /** Key → record, when not the collection's own key (order fulfillments by order number). */
  lookup?: (state: State, key: string | number) => Rec | undefined | { missing: string };
}

export interface WriteContext {
  state: State;
  /** A private copy of the addressed record (absent for a create). */
  record: Rec;
  key: string | number;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are validated JSON.
  body: any;
  bodyProperties: string[];
  now: string;
  seed: string;
  limits: MockLimits;
}

export type WriteResult =
  | {
      ok: true;
      body: unknown;
      changes: [collection: string, record: Rec][];
      /** The body is a record of the collection (default), an object of such records, or as-is. */
      shape?: 'record' | 'values' | 'as-is';
    }
  | { ok: false; refusal: Refusal };

export interface WriteDecl {
  kind: 'write';
  collection: string;
  param?: string;
  /** Describes the effect (docs/mock.md's writes table has the same words). */
  effect: string;
  run: (context: WriteContext) => WriteResult;
}

export type OperationDecl = ListDecl | GetDecl | WriteDecl;

const date = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : undefined);
const clone = <T>(value: T): T => structuredClone(value);

/** The assignment status of a fulfillment order, from its request_status (the mock's mapping). */
export const ASSIGNMENT_STATUS: Record<string, string> = {
  pending: 'fulfillment_unrequested',
  requested: 'fulfillment_requested',
  accepted: 'fulfillment_accepted',
  cancel_requested: 'cancellation_requested',
};

function refuse(_status: 422, field: string, rule: string, message: string): WriteResult {
  return { ok: false, refusal: fieldRefusal('refusedByStore', field, rule, message) };
}

/** Copies the declared body fields onto the record (never `__proto__`, `constructor`...). */
function assignDeclared(record: Rec, body: Rec, properties: string[], skip: string[] = []): void {
  for (const name of properties) {
    if (skip.includes(name) || !Object.hasOwn(body, name)) continue;
    record[name] = clone(body[name]);
  }
}

/** The highest `id` of the items `pick` reads from each record (a loop: no spread of a long list). */
function maxId(records: Rec[], pick: (r: Rec) => Rec[] | undefined): number {
  let max = 0;
  for (const record of records) {
    for (const item of pick(record) ?? []) {
      const id = Number(item.id) || 0;
      if (id > max) max = id;
    }
  }
  return max;
}

const SUBSCRIPTION_FILTERS: FilterDecl[] = [
  { param: 'status', kind: 'any', get: (r) => r.status },
  { param: 'payment_method', kind: 'any', get: (r) => r.payment_method },
  { param: 'card_type', kind: 'any', get: (r) => r.payment_details?.card_type },
  { param: 'is_test', kind: 'bool', get: (r) => r.is_test },
  { param: 'order_number', kind: 'eq', get: (r) => (r.orders ?? []).map((o: Rec) => o.order_number) },
  { param: 'customer_email', kind: 'eq', get: (r) => r.user?.email },
  { param: 'customer_phone_number', kind: 'eq', get: (r) => r.user?.phone_number },
  { param: 'cancel_reason', kind: 'eq', get: (r) => r.cancel_reason },
  { param: 'next_renewal_date_from', kind: 'from', get: (r) => date(r.next_renewal_date) },
  { param: 'next_renewal_date_to', kind: 'to', get: (r) => date(r.next_renewal_date) },
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
  ).map((name): FilterDecl => ({ param: name, kind: 'eq', get: (r) => r.attribution?.[name] })),
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

const fulfillmentOrderCopy = (source: Rec, id: number, now: string, lines: Rec[]): Rec => ({
  ...clone(source),
  id,
  created_at: now,
  updated_at: now,
  line_items: lines.map((line, k) => ({ ...clone(line), id: id * 10 + k, fulfillment_order_id: id })),
});

/** The line items a request names (`[{id, quantity?}]`), or a refusal naming the first unknown one. */
function selectLines(
  record: Rec,
  items: unknown,
): { ok: true; selected: Rec[]; rest: Rec[] } | { ok: false; result: WriteResult } {
  const lines = (record.line_items ?? []) as Rec[];
  if (!Array.isArray(items) || items.length === 0) return { ok: true, selected: lines, rest: [] };
  const selected: Rec[] = [];
  for (const [index, item] of items.entries()) {
    const line = lines.find((l) => l.id === (item as Rec)?.id);
    if (!line) {
      const field = `body.fulfillment_order_line_items.${index}.id`;
      return {
        ok: false,
        result: refuse(
          422,
          field,
          'exists',
          `${field}: fulfillment order ${record.id} has no line item ${JSON.stringify((item as Rec)?.id)} (its line items: ${lines.map((l) => l.id).join(', ')})`,
        ),
      };
    }
    selected.push(line);
  }
  return { ok: true, selected, rest: lines.filter((l) => !selected.includes(l)) };
}

export const OPERATION_DECLS: Record<string, OperationDecl> = {
  listSubscriptions: {
    kind: 'list',
    collection: 'subscriptions',
    filters: SUBSCRIPTION_FILTERS,
    notApplied: SUBSCRIPTION_NOT_APPLIED,
  },
  listSubscriptionTransactions: {
    kind: 'list',
    collection: 'transactions',
    filters: [],
    notApplied: [],
    parent: { collection: 'subscriptions', param: 'id', owns: (r, key) => r.subscription?.id === key },
  },
  listFulfillmentOrders: {
    kind: 'list',
    collection: 'fulfillmentOrders',
    filters: [
      { param: 'order_number', kind: 'eq', get: (r) => r.order_number },
      { param: 'location_id', kind: 'eq', get: (r) => r.assigned_location?.id },
      { param: 'status', kind: 'any', get: (r) => r.status },
      { param: 'request_status', kind: 'any', get: (r) => r.request_status },
      { param: 'fulfillment_order_id', kind: 'eq', get: (r) => r.id },
      { param: 'date_created_from', kind: 'from', get: (r) => date(r.created_at) },
      { param: 'date_created_to', kind: 'to', get: (r) => date(r.created_at) },
    ],
    notApplied: ['shipping_method', 'product', 'sku'],
  },
  listAssignedFulfillmentOrders: {
    kind: 'list',
    collection: 'fulfillmentOrders',
    filters: [
      { param: 'location_id', kind: 'eq', get: (r) => r.assigned_location?.id },
      { param: 'assignment_status', kind: 'eq', get: (r) => ASSIGNMENT_STATUS[r.request_status] },
      { param: 'date_created_from', kind: 'from', get: (r) => date(r.created_at) },
      { param: 'date_created_to', kind: 'to', get: (r) => date(r.created_at) },
    ],
    notApplied: [],
  },
  getTicket: { kind: 'get', collection: 'tickets', param: 'id' },
  getStockRecord: { kind: 'get', collection: 'stockrecords', param: 'id' },
  getStore: { kind: 'get', collection: 'store' },
  getOrderFulfillments: {
    kind: 'get',
    collection: 'orders',
    param: 'number',
    lookup: (state, number) => {
      if (!state.get('orders', number)) return undefined;
      const fulfillment = state.list('fulfillments').find((f) => f.order_number === String(number));
      return fulfillment ?? { missing: `Order ${number} has no fulfillment yet.` };
    },
  },

  updateTicket: {
    kind: 'write',
    collection: 'tickets',
    param: 'id',
    effect:
      'Sets the fields sent (`comment` appends a comment: `body`, `is_public`, `from_email` taken from it when they are a string/boolean); `updated_at` = now.',
    run: ({ record, body, bodyProperties, now }) => {
      assignDeclared(record, body, bodyProperties, ['comment']);
      if (body.comment && typeof body.comment === 'object') {
        if (!Array.isArray(record.comments)) record.comments = [];
        const comments = record.comments as Rec[];
        const c = body.comment as Rec;
        comments.push({
          attachments: [],
          author: record.assignee ?? record.requester ?? null,
          body: typeof c.body === 'string' ? c.body : JSON.stringify(c),
          created_at: now,
          from_email: typeof c.from_email === 'string' ? c.from_email : null,
          id: maxId([record], (r) => r.comments) + 1,
          is_public: typeof c.is_public === 'boolean' ? c.is_public : true,
        });
      }
      record.updated_at = now;
      return { ok: true, body: record, changes: [['tickets', record]] };
    },
  },
  updatePage: {
    kind: 'write',
    collection: 'pages',
    param: 'id',
    effect: 'Replaces the fields sent (`title` required); fields left out keep their value.',
    run: ({ record, body, bodyProperties }) => {
      assignDeclared(record, body, bodyProperties);
      return { ok: true, body: record, changes: [['pages', record]] };
    },
  },
  updateMetadataDefinition: {
    kind: 'write',
    collection: 'metadata',
    param: 'id',
    effect: 'Sets the fields sent; `updated_at` = now.',
    run: ({ record, body, bodyProperties, now }) => {
      assignDeclared(record, body, bodyProperties);
      record.updated_at = now;
      return { ok: true, body: record, changes: [['metadata', record]] };
    },
  },
  createGiftCard: {
    kind: 'write',
    collection: 'giftCards',
    effect:
      'Creates a gift card with the next free id: `initial` = `balance` = the amount sent (2 decimals), a new code, `user` kept when it is an object, else null.',
    run: ({ state, body, now, seed }) => {
      const id = state.nextKey('giftCards');
      const amount = Number(body.initial);
      if (!Number.isFinite(amount) || !/\d/.test(String(body.initial))) {
        return refuse(422, 'body.initial', 'pattern', `body.initial: "${body.initial}" is not an amount`);
      }
      const prng = createPrng(`${seed}/gift-card/${id}`);
      const code = `GC-${prng.chars(4)}-${prng.chars(4)}-${prng.chars(4)}`;
      const template = state.list('giftCards')[0] ?? {};
      const card: Rec = {
        ...clone(template),
        id,
        code,
        last_four: code.slice(-4),
        currency: body.currency,
        initial: money(amount),
        balance: money(amount),
        created_at: now,
        updated_at: now,
        disabled_at: null,
        expired_at: body.expired_at ?? null,
        user: body.user && typeof body.user === 'object' && !Array.isArray(body.user) ? clone(body.user) : null,
      };
      return { ok: true, body: card, changes: [['giftCards', card]] };
    },
  },
  renewSubscription: {
    kind: 'write',
    collection: 'subscriptions',
    param: 'id',
    effect:
      'Creates a renewal order (next order number, the subscription’s lines, paid by one `sale` transaction), appends it to `orders`, `num_orders` + 1, `next_renewal_date` + one interval. Refused (422 naming `path.id`) for a canceled subscription.',
    run: ({ state, record, now }) => {
      if (record.status === 'canceled') {
        return refuse(422, 'path.id', 'state', `path.id: subscription ${record.id} is canceled and cannot renew`);
      }
      const number = String(state.nextKey('orders'));
      const previous = state.get('orders', record.orders?.at(-1)?.order_number ?? '') ?? state.list('orders')[0];
      const order: Rec = clone(previous ?? {});
      const cycle = (Number(record.num_orders) || 0) + 1;
      const template = (previous?.lines?.[0] ?? {}) as Rec;
      const firstLineId = maxId(state.list('orders'), (o) => o.lines) + 1;
      order.lines = ((record.lines ?? []) as Rec[]).map((line, k) => {
        const product = productOf(Number(line.product_id));
        return {
          ...clone(template),
          id: firstLineId + k,
          product_id: product.id,
          product_title: line.product_title ?? product.title,
          product_image: line.product_image ?? null,
          product_url: line.product_url ?? null,
          sku: line.sku ?? product.sku,
          variant_id: line.variant_id ?? product.variant_id,
          variant_title: line.variant_title ?? product.variant_title,
          quantity: line.quantity,
          current_quantity: line.quantity,
          editable_quantity: line.quantity,
          fulfillable_quantity: line.quantity,
          price_incl_tax: line.price,
          price_excl_tax: money(Number(line.price) / 1.19),
          created_at: now,
          updated_at: now,
        };
      });
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
      const paid = clone(previous?.transactions?.[0] ?? {}) as Rec;
      Object.assign(paid, {
        id: maxId(state.list('orders'), (o) => o.transactions) + 1,
        amount: order.total_incl_tax,
        date_created: now,
        status: 'succeeded',
        type: 'sale',
        parent_id: null,
      });
      if (paid.report_values) paid.report_values.amount = order.total_incl_tax;
      order.transactions = [paid];
      retotal(order);
      record.orders = [...(record.orders ?? []), { billing_cycle: cycle, order_number: number }];
      record.num_orders = cycle;
      const days = record.interval === 'day' ? Number(record.interval_count) || 30 : 30;
      const base = Date.parse(record.next_renewal_date ?? now);
      record.next_renewal_date = new Date((Number.isNaN(base) ? Date.parse(now) : base) + days * 86_400_000)
        .toISOString()
        .replace('.000Z', 'Z');
      return {
        ok: true,
        body: record,
        changes: [
          ['orders', order],
          ['subscriptions', record],
        ],
      };
    },
  },
  retrySubscription: {
    kind: 'write',
    collection: 'subscriptions',
    param: 'id',
    effect:
      'A payment retry that succeeds: adds a `sale` transaction of the subscription’s total (listed by its transactions) and sets `status` to `active`. Refused (422 naming `path.id`) for a canceled subscription.',
    run: ({ state, record, now }) => {
      if (record.status === 'canceled') {
        return refuse(422, 'path.id', 'state', `path.id: subscription ${record.id} is canceled; nothing to retry`);
      }
      const own = state.list('transactions').filter((t) => t.subscription?.id === record.id);
      const template = own.at(-1) ?? state.list('transactions')[0] ?? {};
      const ref = record.orders?.at(-1);
      const transaction: Rec = {
        ...clone(template),
        id: state.nextKey('transactions'),
        amount: record.total,
        amount_available_for_refund: record.total,
        date_created: now,
        status: 'succeeded',
        type: 'sale',
        parent_id: null,
        order: ref?.order_number ?? null,
        subscription: { billing_cycle: ref?.billing_cycle ?? record.num_orders ?? 1, id: record.id },
        user: clone(record.user ?? null),
      };
      if (transaction.report_values) transaction.report_values = { ...transaction.report_values, amount: record.total };
      record.status = 'active';
      return {
        ok: true,
        body: record,
        changes: [
          ['transactions', transaction],
          ['subscriptions', record],
        ],
      };
    },
  },
  moveFulfillmentOrder: {
    kind: 'write',
    collection: 'fulfillmentOrders',
    param: 'id',
    effect:
      'Copies the line items named in `fulfillment_order_line_items` (by `id`; all when absent) to a new fulfillment order (next id) at `new_location_id` (`status` open, `request_status` pending); they leave the original, which is closed when none is left. Unknown location or line item → 422 naming it.',
    run: ({ state, record, body, now }) => {
      const location = state.get('locations', body.new_location_id);
      if (!location) {
        const ids = state
          .list('locations')
          .map((l) => l.id)
          .join(', ');
        return refuse(
          422,
          'body.new_location_id',
          'exists',
          `body.new_location_id: no location ${body.new_location_id} (the mock's locations: ${ids})`,
        );
      }
      const picked = selectLines(record, body.fulfillment_order_line_items);
      if (!picked.ok) return picked.result;
      const moved = fulfillmentOrderCopy(record, state.nextKey('fulfillmentOrders'), now, picked.selected);
      Object.assign(moved, { assigned_location: clone(location), status: 'open', request_status: 'pending' });
      record.line_items = picked.rest;
      record.updated_at = now;
      if (picked.rest.length === 0) record.status = 'closed';
      return {
        ok: true,
        body: { moved_fulfillment_order: moved, original_fulfillment_order: record },
        shape: 'values',
        changes: [
          ['fulfillmentOrders', record],
          ['fulfillmentOrders', moved],
        ],
      };
    },
  },
  sendFulfillmentRequest: {
    kind: 'write',
    collection: 'fulfillmentOrders',
    param: 'id',
    effect:
      'Needs `request_status` pending (else 422 naming `path.id`). All lines (no `fulfillment_order_line_items`): the order itself becomes `requested`; original = requested = it, unrequested = null. Some lines: they move to a new, `requested` fulfillment order (next id), the rest stays pending in the original (= unrequested). The message is recorded in `merchant_requests`.',
    run: ({ state, record, body, now }) => {
      if (record.request_status !== 'pending') {
        return refuse(
          422,
          'path.id',
          'state',
          `path.id: fulfillment order ${record.id} has request_status ${record.request_status}; a fulfillment request needs pending`,
        );
      }
      const picked = selectLines(record, body?.fulfillment_order_line_items);
      if (!picked.ok) return picked.result;
      const request = { message: body?.message ?? null, notify: body?.notify ?? false, type: 'fulfill_request' };
      if (picked.rest.length === 0) {
        record.request_status = 'requested';
        record.merchant_requests = [...(record.merchant_requests ?? []), request];
        record.updated_at = now;
        return {
          ok: true,
          body: {
            original_fulfillment_order: record,
            requested_fulfillment_order: record,
            unrequested_fulfillment_order: null,
          },
          shape: 'values',
          changes: [['fulfillmentOrders', record]],
        };
      }
      const requested = fulfillmentOrderCopy(record, state.nextKey('fulfillmentOrders'), now, picked.selected);
      Object.assign(requested, { request_status: 'requested', merchant_requests: [request] });
      record.line_items = picked.rest;
      record.updated_at = now;
      return {
        ok: true,
        body: {
          original_fulfillment_order: record,
          requested_fulfillment_order: requested,
          unrequested_fulfillment_order: record,
        },
        shape: 'values',
        changes: [
          ['fulfillmentOrders', record],
          ['fulfillmentOrders', requested],
        ],
      };
    },
  },
  acceptCancellationRequest: {
    kind: 'write',
    collection: 'fulfillmentOrders',
    param: 'id',
    effect:
      'Needs `request_status` cancel_requested (else 422 naming `path.id`): sets `request_status` cancel_accepted and `status` canceled.',
    run: ({ record, now }) => {
      if (record.request_status !== 'cancel_requested') {
        return refuse(
          422,
          'path.id',
          'state',
          `path.id: fulfillment order ${record.id} has request_status ${record.request_status}; accepting a cancellation needs cancel_requested`,
        );
      }
      Object.assign(record, { request_status: 'cancel_accepted', status: 'canceled', updated_at: now });
      return { ok: true, body: record, changes: [['fulfillmentOrders', record]] };
    },
  },
  addOrderLineItems: {
    kind: 'write',
    collection: 'orders',
    param: 'number',
    effect:
      'Appends one line per line sent (product from the mock’s catalogue, ids 1-6; other ids priced 10.00), charges the added amount as a `sale` transaction, recomputes the totals (VAT 19% included).',
    run: ({ state, record, body, now }) => {
      const lines = (record.lines ?? []) as Rec[];
      const template = clone(lines[0] ?? {});
      let id = maxId(state.list('orders'), (o) => o.lines) + 1;
      let added = 0;
      for (const line of body.lines as Rec[]) {
        const product = productOf(line.product_id);
        const quantity = line.quantity as number;
        added += product.price * quantity;
        lines.push(orderLine(template, product, id++, quantity, now));
      }
      record.lines = lines;
      const charge = clone(record.transactions?.[0] ?? {}) as Rec;
      Object.assign(charge, {
        id: maxId(state.list('orders'), (o) => o.transactions) + 1,
        amount: money(added),
        date_created: now,
        status: 'succeeded',
        type: 'sale',
        parent_id: null,
      });
      if (charge.report_values) charge.report_values = { ...charge.report_values, amount: money(added) };
      record.transactions = [...(record.transactions ?? []), charge];
      record.updated_at = now;
      retotal(record);
      return { ok: true, body: record, changes: [['orders', record]] };
    },
  },
  captureTransaction: {
    kind: 'write',
    collection: 'transactions',
    param: 'id',
    effect:
      'Needs an `authorization` transaction (every 4th seeded one; else 422 naming `path.id`). Adds a `capture` transaction (next id, `parent_id` = the authorization) of `amount`, or of what is left to capture when omitted/null; `amount` above what is left (authorized minus earlier captures) or below 0.01 → 422 naming `body.amount`.',
    run: ({ state, record, body, now }) => {
      if (record.type !== 'authorization') {
        return refuse(
          422,
          'path.id',
          'state',
          `path.id: transaction ${record.id} is a ${record.type}, not an authorization; only authorizations can be captured`,
        );
      }
      const captured = state
        .list('transactions')
        .filter((t) => t.parent_id === record.id && t.type === 'capture')
        .reduce((sum, t) => sum + Number(t.amount), 0);
      const left = Math.round((Number(record.amount) - captured) * 100) / 100;
      const requested = body?.amount ?? null;
      const amount = requested === null ? left : Number(requested);
      if (!(amount >= 0.01) || amount > left + 1e-9) {
        return refuse(
          422,
          'body.amount',
          amount > left ? 'maximum' : 'minimum',
          `body.amount must be from 0.01 to ${money(left)}, what is left to capture of transaction ${record.id} (authorized ${record.amount})`,
        );
      }
      const capture: Rec = {
        ...clone(record),
        id: state.nextKey('transactions'),
        amount: money(amount),
        amount_available_for_refund: money(amount),
        date_created: now,
        parent_id: record.id,
        type: 'capture',
        status: 'succeeded',
      };
      if (capture.report_values) capture.report_values = { ...capture.report_values, amount: money(amount) };
      return { ok: true, body: capture, changes: [['transactions', capture]] };
    },
  },
};
