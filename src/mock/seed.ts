/**
 * The mock's store, generated at start from the contract's own examples (each resource's first
 * response example is the template of its records) and a seed (./prng.ts): same seed, same
 * bundles → byte-identical data. Related ids agree: fulfillment orders, tickets, subscriptions and
 * transactions point at orders of the store; a subscription's transactions name it.
 *
 * | collection        | ids                | notes                                                   |
 * |-------------------|--------------------|---------------------------------------------------------|
 * | subscriptions     | 1..45              | status cycles through the 5 states                      |
 * | transactions      | 1..80              | 1..25 belong to subscription 1, the rest to 2..45; every 4th is an `authorization` |
 * | fulfillmentOrders | 1..56              | every (status, request_status) pair once                |
 * | tickets           | 1..50              | every (status, priority) pair                           |
 * | orders            | "1001".."1040"     | each with one fulfillment (fulfillments 1..40)          |
 * | stockrecords      | 1..45              |                                                         |
 * | giftCards         | 1..40              | POST /gift-cards/ adds 41, 42...                        |
 * | metadata          | 1..40              |                                                         |
 * | pages             | 1..40              |                                                         |
 * | locations         | 12, 14, 31, 40     | where fulfillment orders are assigned and stock is held |
 */
import { type Bundle, deref, type Json } from '../contract/index.ts';
import { createPrng, type Prng } from './prng.ts';

// biome-ignore lint/suspicious/noExplicitAny: records are JSON walked generically.
export type Rec = Record<string, any>;
export type StoreData = Record<string, Rec[]>;

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'retrying', 'paused'] as const;
export const FULFILLMENT_STATUSES = [
  'not_required',
  'open',
  'processing',
  'on_hold',
  'incomplete',
  'closed',
  'canceled',
] as const;
export const REQUEST_STATUSES = [
  'pending',
  'requested',
  'accepted',
  'rejected',
  'cancel_requested',
  'cancel_accepted',
  'cancel_rejected',
  'closed',
] as const;
export const TICKET_STATUSES = ['new', 'open', 'pending', 'solved', 'closed'] as const;
export const TICKET_PRIORITIES = ['high', 'medium', 'low'] as const;
const PAYMENT_METHODS = ['apple_pay', 'bankcard', 'google_pay', 'klarna', 'link', 'paypal', 'twint'];
const CARD_TYPES = ['visa', 'mastercard', 'american_express', 'diners_club', 'discover', 'jcb', 'maestro', 'dankort'];
const METADATA_OBJECTS = ['attribution', 'customer', 'dispute', 'line', 'order', 'product', 'variant', 'blog', 'page'];
const FIRST = ['Anna', 'Lukas', 'Marie', 'Jonas', 'Lena', 'Felix', 'Sofia', 'Paul', 'Emma', 'Noah'];
const LAST = ['Schmidt', 'Gruber', 'Dubois', 'Meyer', 'Weber', 'Fischer', 'Huber', 'Rossi', 'Novak', 'Berg'];
const UTM_SOURCES = ['google', 'facebook', 'newsletter', null];
const SUBJECTS = ['Change of delivery address', 'Item arrived damaged', 'Where is my parcel?', 'Refund request'];
export const FIRST_ORDER_NUMBER = 1001;

export const counts = {
  subscriptions: 45,
  transactions: 80,
  fulfillmentOrders: 56,
  tickets: 50,
  orders: 40,
  stockrecords: 45,
  giftCards: 40,
  metadata: 40,
  pages: 40,
} as const;

const clone = <T>(value: T): T => structuredClone(value);
export const money = (value: number): string => value.toFixed(2);

/** The first example value of the 200 response of `operationId` in `bundle`. */
export function exampleOf(bundle: Bundle, operationId: string): Json {
  const operation = bundle.operations.find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`${operationId} is not in ${bundle.version}`);
  const response = deref(bundle.document, operation.operation.responses?.['200']);
  const media = response?.content?.['application/json'];
  const first = media?.example ?? deref(bundle.document, Object.values<Json>(media?.examples ?? {})[0])?.value;
  if (first === undefined) throw new Error(`${operationId} (${bundle.version}) has no 200 example`);
  return clone(first);
}

export interface Templates {
  subscription: Rec;
  subscriptionLineV2023: Rec;
  transaction: Rec;
  fulfillmentOrder: Rec;
  ticket: Rec;
  order: Rec;
  fulfillment: Rec;
  stockrecord: Rec;
  giftCard: Rec;
  metadata: Rec;
  page: Rec;
  store: Rec[];
}

/** The record templates: the first example of each resource, from the bundle that has it. */
export function templatesOf(bundles: Bundle[]): Templates {
  const find = (operationId: string, version?: string): Json => {
    const bundle = bundles.find(
      (b) => (!version || b.version === version) && b.operations.some((o) => o.operationId === operationId),
    );
    if (!bundle) throw new Error(`no bundle has ${operationId}${version ? ` (${version})` : ''}`);
    return exampleOf(bundle, operationId);
  };
  const hasV2023 = bundles.some((b) => b.version === '2023-02-10');
  const subscription = find('listSubscriptions').results[0];
  const old = hasV2023 ? find('listSubscriptions', '2023-02-10').results[0] : undefined;
  return {
    subscription,
    subscriptionLineV2023: old?.lines?.[0] ?? {},
    transaction: find('listSubscriptionTransactions').results[0],
    fulfillmentOrder: find('listFulfillmentOrders').results[0],
    ticket: find('updateTicket'),
    order: find('addOrderLineItems'),
    fulfillment: hasV2023 ? find('getOrderFulfillments') : find('addOrderLineItems').fulfillments[0],
    stockrecord: hasV2023 ? find('getStockRecord') : {},
    giftCard: hasV2023 ? find('createGiftCard') : {},
    metadata: hasV2023 ? find('updateMetadataDefinition') : {},
    page: find('updatePage'),
    store: find('getStore'),
  };
}

interface Product {
  id: number;
  title: string;
  slug: string;
  sku: string;
  variant_id: number;
  variant_title: string;
  price: number;
}

const PRODUCTS: Product[] = [
  ['Linen shirt', 'LIN-SHIRT', 'White / M', 49.9],
  ['Linen socks', 'LIN-SOCK', 'Natural / 42', 12.9],
  ['Merino wool socks, 2-pack', 'WOOL-SOCK-2P', 'Anthracite / 39-42', 22.5],
  ['Wool scarf', 'WOOL-SCARF', 'Grey', 39.0],
  ['Linen trousers', 'LIN-TROUSER', 'Sand / 32', 79.0],
  ['Canvas tote', 'CANVAS-TOTE', 'Natural', 19.5],
].map(([title, sku, variant, price], index) => ({
  id: index + 1,
  title: title as string,
  slug: String(title)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-'),
  sku: sku as string,
  variant_id: 101 + index,
  variant_title: variant as string,
  price: price as number,
}));

export const productOf = (id: number): Product =>
  PRODUCTS.find((p) => p.id === id) ?? {
    id,
    title: `Product ${id}`,
    slug: `product-${id}`,
    sku: `SKU-${id}`,
    variant_id: 100 + id,
    variant_title: 'Default',
    price: 10,
  };

const excl = (incl: number) => incl / 1.19;

/** Seconds since 2024-01-01 → ISO 8601 without milliseconds. */
const at = (seconds: number) => new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString().replace('.000Z', 'Z');
const day = 86_400;

function person(prng: Prng, template: Rec, id: number): Rec {
  const first = prng.pick(FIRST);
  const last = prng.pick(LAST);
  return {
    ...clone(template),
    id,
    first_name: first,
    last_name: last,
    email: `${first}.${last}.${id}@example.com`.toLowerCase(),
    phone_number: `+49 151 ${String(prng.int(1000000, 9999999))}`,
  };
}

/** Location ids: those of the contract's examples (12 Hamburg, 14 Munich, 31 Leipzig) and 40. */
export const LOCATION_IDS = [12, 14, 31, 40];

function location(template: Rec, index: number): Rec {
  const id = LOCATION_IDS[index] as number;
  const names = ['Hamburg warehouse', 'Munich store', 'ParcelPartner Leipzig', 'Vienna store'];
  const cities = ['Hamburg', 'München', 'Leipzig', 'Wien'];
  const out = clone(template);
  out.id = id;
  out.name = names[index % names.length];
  out.accept_return = index % 2 === 0;
  if (out.address) {
    out.address.line3 = cities[index % cities.length];
    out.address.postcode = String(10000 + (index + 1) * 1111);
  }
  return out;
}

/** An order line of `quantity` × `product` (seeded orders and add-line-items share it). */
export function orderLine(template: Rec, product: Product, id: number, quantity: number, created: string): Rec {
  const incl = product.price;
  const line = clone(template);
  Object.assign(line, {
    id,
    created_at: created,
    updated_at: created,
    product_id: product.id,
    product_title: product.title,
    product_url: `https://shop.example.com/products/${product.slug}/`,
    product_image: `https://cdn.example.com/products/${product.slug}.jpg`,
    sku: product.sku,
    variant_id: product.variant_id,
    variant_title: product.variant_title,
    quantity,
    current_quantity: quantity,
    editable_quantity: quantity,
    fulfillable_quantity: quantity,
    price_incl_tax: money(incl),
    price_excl_tax: money(excl(incl)),
    original_price_incl_tax: money(incl),
    original_price_excl_tax: money(excl(incl)),
    total_discount: '0.00',
    original_total_discount: '0.00',
    total_cost: money(incl * quantity),
    unit_cost: money(incl),
    is_upsell: false,
    is_gift_card: false,
  });
  if (line.report_values && typeof line.report_values === 'object') {
    Object.assign(line.report_values, {
      price_incl_tax: money(incl),
      price_excl_tax: money(excl(incl)),
      original_price_incl_tax: money(incl),
      original_price_excl_tax: money(excl(incl)),
      total_cost: money(incl * quantity),
      total_discount: '0.00',
      original_total_discount: '0.00',
      unit_cost: money(incl),
    });
  }
  return line;
}

/** Recomputes an order's totals from its lines and shipping (the mock's arithmetic, VAT 19% included). */
export function retotal(order: Rec): void {
  const lines = (order.lines ?? []) as Rec[];
  const items = lines.reduce((sum, l) => sum + Number(l.price_incl_tax) * Number(l.quantity), 0);
  const shipping = Number(order.shipping_incl_tax ?? 0) || 0;
  const incl = items + shipping;
  const paid = ((order.transactions ?? []) as Rec[])
    .filter((t) => t.status === 'succeeded')
    .reduce((sum, t) => sum + Number(t.amount), 0);
  const totals = {
    total_incl_tax: money(incl),
    total_excl_tax: money(excl(incl)),
    total_tax: money(incl - excl(incl)),
    total_cost: money(incl),
    total_outstanding: money(Math.max(0, incl - paid)),
  };
  Object.assign(order, totals);
  if (order.report_values && typeof order.report_values === 'object') {
    const { total_outstanding: _, total_tax: __, ...reported } = totals;
    Object.assign(order.report_values, reported);
  }
}

function compactTransaction(template: Rec, id: number, amount: string, created: string): Rec {
  const out = clone(template);
  Object.assign(out, { id, amount, date_created: created, status: 'succeeded', type: 'sale', parent_id: null });
  if (out.report_values) out.report_values.amount = amount;
  return out;
}

export interface SeedOptions {
  seed: string;
}

export function generateStore(bundles: Bundle[], options: SeedOptions): StoreData {
  const prng = createPrng(options.seed);
  const t = templatesOf(bundles);
  const locationTemplate = t.fulfillmentOrder.assigned_location;
  const locations = LOCATION_IDS.map((_, index) => location(locationTemplate, index));
  const userTemplate = t.subscription.user;
  const users = Array.from({ length: 30 }, (_, i) => person(prng, userTemplate, i + 1));

  // Orders "1001".."1040", each with one fulfillment (id = index) at one of the locations.
  const orders: Rec[] = [];
  const fulfillments: Rec[] = [];
  const lineTemplate = t.order.lines?.[0] ?? {};
  const fulfillmentLineTemplate = { total_discount: '0.00', ...(t.fulfillment.line_items?.[0] ?? {}) };
  const compactTemplate = t.order.transactions?.[0] ?? {};
  for (let i = 1; i <= counts.orders; i++) {
    const number = String(FIRST_ORDER_NUMBER + i - 1);
    const created = at(i * 3 * day + prng.int(0, day));
    const user = prng.pick(users);
    const order = clone(t.order);
    const products = [prng.pick(PRODUCTS), ...(i % 3 === 0 ? [prng.pick(PRODUCTS)] : [])];
    order.lines = products.map((p, k) => orderLine(lineTemplate, p, i * 10 + k, prng.int(1, 3), created));
    order.number = number;
    order.created_at = created;
    order.date_placed = created;
    order.updated_at = created;
    order.user = clone(user);
    order.order_status_url = `https://shop.example.com/orders/${number}/status/`;
    order.refunds = [];
    order.subscriptions = [];
    order.tags = i % 4 === 0 ? ['vip'] : [];
    order.is_test = false;
    if (order.billing_address)
      Object.assign(order.billing_address, { first_name: user.first_name, last_name: user.last_name });
    if (order.shipping_address)
      Object.assign(order.shipping_address, { first_name: user.first_name, last_name: user.last_name });
    order.transactions = [];
    retotal(order);
    order.transactions = [compactTransaction(compactTemplate, 1000 + i, order.total_incl_tax, created)];
    retotal(order);
    const loc = locations[i % locations.length] as Rec;
    const fulfillment = clone(t.fulfillment);
    Object.assign(fulfillment, {
      id: i,
      order_number: number,
      location_id: loc.id,
      origin_address: clone(loc.address),
      created_at: created,
      last_event_date: created,
      line_items: order.lines.map((line: Rec, k: number) => ({
        ...clone(fulfillmentLineTemplate),
        id: i * 10 + k,
        order_line_id: line.id,
        product_id: line.product_id,
        product_title: line.product_title,
        product_image: line.product_image,
        sku: line.sku,
        quantity: line.quantity,
        fulfilled_quantity: String(line.quantity),
        returnable_quantity: line.quantity,
        returned_quantity: 0,
        price_incl_tax: line.price_incl_tax,
        price_excl_tax: line.price_excl_tax,
        price_incl_tax_excl_discounts: line.price_incl_tax,
        price_excl_tax_excl_discounts: line.price_excl_tax,
      })),
    });
    fulfillments.push(fulfillment);
    orders.push(order);
  }

  // Stock records 1..45: product × location.
  const stockrecords: Rec[] = [];
  for (let i = 1; i <= counts.stockrecords; i++) {
    const product = PRODUCTS[(i - 1) % PRODUCTS.length] as Product;
    const loc = locations[(i - 1) % locations.length] as Rec;
    const inStock = prng.int(0, 300);
    const allocated = prng.int(0, Math.min(inStock, 40));
    const record = clone(t.stockrecord);
    Object.assign(record, {
      id: i,
      sku: `${product.sku}-${loc.id}`,
      product: { id: product.id, name: product.title },
      location: clone(loc),
      num_in_stock: inStock,
      num_allocated: allocated,
      net_stock_level: inStock - allocated,
      low_stock_threshold: 10,
      date_created: at(prng.int(0, 30) * day),
      date_updated: at(prng.int(31, 130) * day),
    });
    stockrecords.push(record);
  }

  // Subscriptions 1..45.
  const subscriptions: Rec[] = [];
  for (let i = 1; i <= counts.subscriptions; i++) {
    const status = SUBSCRIPTION_STATUSES[(i - 1) % SUBSCRIPTION_STATUSES.length] as string;
    const user = prng.pick(users);
    const created = at(prng.int(0, 60) * day + prng.int(0, day));
    const intervalCount = prng.pick([14, 30, 60]);
    const sub = clone(t.subscription);
    const products = [prng.pick(PRODUCTS), ...(i % 4 === 0 ? [prng.pick(PRODUCTS)] : [])];
    sub.lines = products.map((p, k) => ({
      ...clone(t.subscription.lines?.[0] ?? {}),
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
    const cycles = prng.int(1, 3);
    const orderRefs = Array.from({ length: cycles }, (_, k) => ({
      billing_cycle: k + 1,
      order_number: String(FIRST_ORDER_NUMBER + ((i * 3 + k * 7) % counts.orders)),
    }));
    const total = sub.lines.reduce((sum: number, l: Rec) => sum + Number(l.price) * l.quantity, 0);
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
      orders: orderRefs,
      next_renewal_date: at(150 * day + prng.int(0, 60) * day),
      payment_method: PAYMENT_METHODS[(i - 1) % PAYMENT_METHODS.length],
      payment_details: { card_type: CARD_TYPES[(i - 1) % CARD_TYPES.length] },
      cancel_reason: status === 'canceled' ? prng.pick(['too_expensive', 'not_needed', 'other']) : null,
      cancel_reason_other_message: null,
      shipping_price: '4.90',
      total: money(total + 4.9),
      is_tax_known: i % 2 === 1,
    });
    if (sub.attribution) {
      sub.attribution.utm_source = UTM_SOURCES[(i - 1) % UTM_SOURCES.length];
      sub.attribution.utm_campaign = i % 2 ? 'spring_2024' : null;
      sub.attribution.affiliate = i % 5 === 0 ? 'slowfashionblog' : null;
    }
    if (sub.billing_address)
      Object.assign(sub.billing_address, { first_name: user.first_name, last_name: user.last_name });
    if (sub.shipping_address)
      Object.assign(sub.shipping_address, { first_name: user.first_name, last_name: user.last_name });
    subscriptions.push(sub);
  }

  // Transactions 1..80 (full form): 1..25 of subscription 1, the rest round robin over 2..45.
  const transactions: Rec[] = [];
  for (let i = 1; i <= counts.transactions; i++) {
    const subId = i <= 25 ? 1 : 2 + ((i - 26) % (counts.subscriptions - 1));
    const sub = subscriptions[subId - 1] as Rec;
    const ref = sub.orders[(i - 1) % sub.orders.length];
    const amount = sub.total;
    const authorization = i % 4 === 0;
    const record = clone(t.transaction);
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
      user: clone(sub.user),
      payment_method: sub.payment_method === 'bankcard' ? 'bankcard' : record.payment_method,
      external_id: `ch_${prng.chars(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
    });
    if (record.report_values) record.report_values.amount = amount;
    transactions.push(record);
  }

  // Fulfillment orders 1..56: every (status, request_status) pair once.
  const foLineTemplate = t.fulfillmentOrder.line_items?.[0] ?? {};
  const fulfillmentOrders: Rec[] = [];
  for (let i = 1; i <= counts.fulfillmentOrders; i++) {
    const order = orders[(i - 1) % orders.length] as Rec;
    const created = at(prng.int(0, 140) * day + prng.int(0, day));
    const record = clone(t.fulfillmentOrder);
    Object.assign(record, {
      id: i,
      order_number: order.number,
      status: FULFILLMENT_STATUSES[(i - 1) % FULFILLMENT_STATUSES.length],
      request_status: REQUEST_STATUSES[Math.floor((i - 1) / FULFILLMENT_STATUSES.length) % REQUEST_STATUSES.length],
      assigned_location: clone(locations[(i - 1) % locations.length]),
      created_at: created,
      updated_at: created,
      fulfillment_holds: [],
      merchant_requests: [],
      shipping_address: clone(order.shipping_address ?? record.shipping_address),
      line_items: order.lines.map((line: Rec, k: number) => ({
        ...clone(foLineTemplate),
        id: i * 10 + k,
        fulfillment_order_id: i,
        order_line_id: line.id,
        product_id: String(line.product_id),
        product_title: line.product_title,
        product_image: line.product_image,
        sku: line.sku,
        quantity: line.quantity,
        fulfillable_quantity: String(line.quantity),
        price_incl_tax: line.price_incl_tax,
        price_excl_tax: line.price_excl_tax,
        stockrecord_id: 1 + ((line.product_id - 1) % counts.stockrecords),
      })),
    });
    fulfillmentOrders.push(record);
  }

  // Tickets 1..50: every (status, priority) pair.
  const tickets: Rec[] = [];
  const commentTemplate = t.ticket.comments?.[0] ?? {};
  for (let i = 1; i <= counts.tickets; i++) {
    const user = prng.pick(users);
    const created = at(prng.int(0, 140) * day + prng.int(0, day));
    const record = clone(t.ticket);
    Object.assign(record, {
      id: i,
      status: TICKET_STATUSES[(i - 1) % TICKET_STATUSES.length],
      priority: TICKET_PRIORITIES[Math.floor((i - 1) / TICKET_STATUSES.length) % TICKET_PRIORITIES.length],
      order: String(FIRST_ORDER_NUMBER + ((i - 1) % counts.orders)),
      requester: user.id,
      from_email: user.email,
      subject: prng.pick(SUBJECTS),
      created_at: created,
      updated_at: created,
      assignee: i % 6 === 0 ? null : prng.int(1, 5),
      products: [prng.pick(PRODUCTS).id],
      tags: i % 3 === 0 ? ['shipping'] : [],
      comments: [
        {
          ...clone(commentTemplate),
          id: i * 10,
          attachments: [],
          author: user.id,
          body: 'Hello, I have a question about my order.',
          created_at: created,
          from_email: user.email,
          is_public: true,
        },
      ],
    });
    tickets.push(record);
  }

  const giftCards: Rec[] = [];
  for (let i = 1; i <= counts.giftCards; i++) {
    const code = `GC-${prng.chars(4)}-${prng.chars(4)}-${prng.chars(4)}`;
    const initial = money(prng.pick([10, 25, 50, 100]));
    const created = at(prng.int(0, 140) * day);
    giftCards.push({
      ...clone(t.giftCard),
      id: i,
      code,
      last_four: code.slice(-4),
      currency: i % 5 === 0 ? 'CHF' : 'EUR',
      initial,
      balance: i % 3 === 0 ? money(Number(initial) / 2) : initial,
      created_at: created,
      updated_at: created,
      disabled_at: null,
      expired_at: at(500 * day + prng.int(0, 200) * day),
      user: i % 2 === 0 ? clone(prng.pick(users)) : null,
    });
  }

  const metadata: Rec[] = [];
  for (let i = 1; i <= counts.metadata; i++) {
    const created = at(prng.int(0, 140) * day);
    metadata.push({
      ...clone(t.metadata),
      id: i,
      key: `field_${i}`,
      name: `Field ${i}`,
      object: METADATA_OBJECTS[(i - 1) % METADATA_OBJECTS.length],
      enable_export: i % 2 === 0,
      enable_filter: i % 3 === 0,
      created_at: created,
      updated_at: created,
    });
  }

  const pages: Rec[] = [];
  for (let i = 1; i <= counts.pages; i++) {
    pages.push({
      ...clone(t.page),
      id: i,
      slug: `page-${i}`,
      title: `Page ${i}`,
      meta_title: `Page ${i} | Northwind Apparel`,
      template: `pages/page.custom${i}.html`,
      content: `<h1>Page ${i}</h1>`,
    });
  }

  return {
    subscriptions,
    transactions,
    fulfillmentOrders,
    tickets,
    orders,
    fulfillments,
    stockrecords,
    giftCards,
    metadata,
    pages,
    locations,
    store: clone(t.store),
  };
}

/** The 2023-02-10 line of a subscription line: nested product and stock record, from the flat fields. */
export function subscriptionLineV2023(line: Rec, template: Rec, currency: string, stockrecords: Rec[]): Rec {
  const stock = stockrecords.find((s) => s.product?.id === line.product_id);
  const product = clone(template.product ?? {});
  Object.assign(product, {
    id: line.product_id,
    title: line.product_title,
    url: line.product_url,
    images: line.product_image
      ? [
          {
            ...(template.product?.images?.[0] ?? {}),
            attachment: line.product_image,
            src: line.product_image,
            file_name: String(line.product_image).split('/').pop(),
            caption: line.product_title,
            display_order: 0,
            id: line.id,
          },
        ]
      : [],
  });
  const stockrecord = {
    ...clone(template.stockrecord ?? {}),
    id: stock?.id ?? line.variant_id ?? line.id,
    partner_sku: line.sku,
    price: line.price,
    price_retail: line.price,
    price_currency: currency,
    num_in_stock: stock?.num_in_stock ?? 0,
    num_allocated: stock?.num_allocated ?? 0,
    low_stock_threshold: stock?.low_stock_threshold ?? null,
  };
  return { id: line.id, metadata: line.metadata, price: line.price, quantity: line.quantity, product, stockrecord };
}
