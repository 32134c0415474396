// The examples read like one real store: plausible values (decimal money strings, ISO currency codes,
// emails and URLs on the reserved example.com domain, positive ids, updates after creations) and
// one consistent world across every example of every version (the same customer, location, product,
// stock record, gateway, order line or subscription order is the same everywhere it appears).
import { describe, expect, it } from 'vitest';
import { type ApiVersion, deref, type Json, loadBundle, operationsOf, VERSIONS } from '../helpers/bundles.ts';

interface Example {
  name: string;
  version: ApiVersion;
  schema: Json;
  value: Json;
}

/** Every request and 2xx response example of every operation of every version. */
function allExamples(): Example[] {
  return VERSIONS.flatMap((version) => {
    const bundle = loadBundle(version);
    return operationsOf(version).flatMap(({ method, path, operation }) => {
      const label = `${version} ${method.toUpperCase()} ${path}`;
      const medias: [string, Json][] = [];
      const body = deref(bundle, operation.requestBody)?.content?.['application/json'];
      if (body) medias.push([`${label} request`, body]);
      for (const [code, response] of Object.entries<Json>(operation.responses)) {
        const media = deref(bundle, response).content?.['application/json'];
        if (/^2/.test(code) && media) medias.push([`${label} ${code}`, media]);
      }
      return medias.flatMap(([where, media]) =>
        Object.entries<Json>(media.examples ?? {}).map(([name, example]) => ({
          name: `${where} "${name}"`,
          version,
          schema: media.schema,
          value: deref(bundle, example).value,
        })),
      );
    });
  });
}

const examples = allExamples();

/**
 * Walks a value along its schema and calls `visit` with the name of the component schema each
 * value was typed by (the last `$ref` followed), the property key and the path.
 */
function walkTyped(
  bundle: Json,
  schema: Json,
  value: Json,
  at: string,
  key: string,
  visit: (component: string | undefined, value: Json, at: string, key: string) => void,
): void {
  let node = schema;
  let component: string | undefined;
  while (node && typeof node.$ref === 'string') {
    component = node.$ref.split('/').pop();
    node = deref(bundle, { $ref: node.$ref });
  }
  if (!node) return;
  visit(component, value, at, key);
  if (node.allOf) {
    // The members' properties, merged (ShippingAddress: BillingAddress + notes).
    const merged = Object.assign({}, ...node.allOf.map((m: Json) => deref(bundle, m).properties ?? {}));
    walkTyped(bundle, { type: 'object', properties: merged }, value, at, key, visit);
    return;
  }
  // The nullable wrapper `anyOf: [X, {type: 'null'}]` types the value as X.
  const branches: Json[] = (node.anyOf ?? node.oneOf ?? []).filter((b: Json) => deref(bundle, b).type !== 'null');
  if (branches.length === 1) {
    walkTyped(bundle, branches[0], value, at, key, visit);
  } else if (Array.isArray(value) && node.items) {
    value.forEach((item, i) => {
      walkTyped(bundle, node.items, item, `${at}[${i}]`, key, visit);
    });
  } else if (value && typeof value === 'object' && node.properties) {
    for (const [name, child] of Object.entries<Json>(value)) {
      if (node.properties[name]) walkTyped(bundle, node.properties[name], child, `${at}.${name}`, name, visit);
    }
  }
}

const URL_ON_EXAMPLE_DOMAIN = /^https:\/\/([a-z0-9-]+\.)*example\.com(\/\S*)?$/;
const URL_KEYS = new Set(['product_image', 'product_url', 'tracking_link', 'attachment', 'src']);
const EMAIL_KEYS = new Set(['email', 'from_email', 'customer_email']);
const CURRENCY_KEYS = new Set(['currency', 'price_currency']);
const PLACEHOLDERS = new Set(['string', 'TODO', 'todo', 'foo', 'bar', 'baz', 'lorem', 'lorem ipsum', 'test', 'xxx']);

describe('example values are realistic', () => {
  it.each(examples.map((e) => [e.name, e] as const))('%s', (_name, example) => {
    const bundle = loadBundle(example.version);
    const problems: string[] = [];
    walkTyped(bundle, example.schema, example.value, 'value', '', (component, value, at, key) => {
      if (typeof value === 'string' && PLACEHOLDERS.has(value.trim())) problems.push(`${at}: placeholder ${value}`);
      if (value === null || value === undefined) return;
      const bad = (what: string) => problems.push(`${at}: ${JSON.stringify(value)} is not ${what}`);
      if (component === 'DecimalString' && !/^-?\d+(\.\d+)?$/.test(value)) bad('a decimal string');
      if (component === 'DecimalString' && !/quantity/.test(key) && !/^-?\d+\.\d{2}$/.test(value))
        bad('a money string with two decimals ("49.90")');
      if ((component === 'Currency' || CURRENCY_KEYS.has(key)) && !/^[A-Z]{3}$/.test(value))
        bad('an ISO 4217 currency code');
      if ((component === 'Url' || URL_KEYS.has(key)) && !URL_ON_EXAMPLE_DOMAIN.test(value))
        bad('an https URL on example.com');
      if (EMAIL_KEYS.has(key) && !/^[a-z0-9.]+@example\.com$/.test(value)) bad('an email address on example.com');
      if (component === 'Id' && !(Number.isInteger(value) && value > 0)) bad('a positive integer id');
      if (component === 'Timestamp' && !/^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value))
        bad('an ISO 8601 UTC timestamp');
    });
    expect(problems).toEqual([]);
  });
});

/** Every object inside a value, with its path. */
function* objectsOf(value: Json, at: string): Generator<[Json, string]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* objectsOf(item, `${at}[${i}]`);
  } else if (value && typeof value === 'object') {
    yield [value, at];
    for (const [key, child] of Object.entries<Json>(value)) yield* objectsOf(child, `${at}.${key}`);
  }
}

const has = (object: Json, ...keys: string[]) => keys.every((key) => key in object);

describe('examples describe one consistent store', () => {
  /** kind -> key -> the first value seen and where; later sightings must agree. */
  const seen = new Map<string, Map<string, { value: string; at: string }>>();
  const conflicts: string[] = [];
  const same = (kind: string, key: unknown, value: unknown, at: string) => {
    if (key === null || key === undefined || value === null || value === undefined) return;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const table = seen.get(kind) ?? new Map<string, { value: string; at: string }>();
    seen.set(kind, table);
    const first = table.get(String(key));
    if (!first) table.set(String(key), { value: text, at });
    else if (first.value !== text) conflicts.push(`${kind} ${key}: ${first.value} (${first.at}) vs ${text} (${at})`);
  };
  const descriptors = new Set<string>();
  const transactionTypes = new Set<string>();
  const storeNames = new Set<string>();
  const problems: string[] = [];

  for (const example of examples) {
    for (const [o, at] of objectsOf(example.value, example.name)) {
      // People: a customer (User) or an agent is the same person wherever the id appears.
      if (has(o, 'accepts_marketing', 'email', 'id')) {
        same('customer', o.id, o, at);
        same('customer email', o.email, o.id, at);
      }
      if (has(o, 'email', 'first_name', 'id', 'last_name') && Object.keys(o).length === 4) {
        same('agent', o.id, o, at);
        same('agent email', o.email, o.id, at);
      }
      if (has(o, 'email', 'first_name', 'last_name')) {
        const expected = `${o.first_name}.${o.last_name}@example.com`.toLowerCase();
        if (o.email !== expected) problems.push(`${at}: ${o.email} for ${o.first_name} ${o.last_name}`);
      }
      // Places and things.
      if (has(o, 'accept_return', 'callback_url', 'id')) same('location', o.id, o, at);
      if (has(o, 'first_name', 'line1', 'id')) same('address', o.id, o, at);
      if (has(o, 'product_id', 'product_title')) same('product', String(o.product_id), o.product_title, at);
      if (has(o, 'product_id', 'sku')) same('sku', o.sku, String(o.product_id), at);
      if (has(o, 'sku', 'price_incl_tax')) same('unit price', o.sku, o.price_incl_tax, at);
      if (has(o, 'upc', 'title', 'id')) same('product', String(o.id), o.title, at);
      if (has(o, 'net_stock_level', 'product', 'sku')) {
        same('product', String(o.product?.id), o.product?.name, at);
        same('stock record', String(o.id), o.sku, at);
      }
      if (has(o, 'stockrecord_id', 'sku')) same('stock record', String(o.stockrecord_id), o.sku, at);
      if (has(o, 'partner_sku', 'num_in_stock')) same('stock record', String(o.id), o.partner_sku, at);
      if (has(o, 'order_line_id', 'product_id')) same('order line', String(o.order_line_id), String(o.product_id), at);
      if (has(o, 'is_upsell', 'product_id', 'id')) same('order line', String(o.id), String(o.product_id), at);
      if (has(o, 'gateway') && o.gateway) same('gateway', o.gateway.id, o.gateway, at);
      // Fulfillment orders: their lines point back at them; an id keeps its order.
      if (has(o, 'request_status', 'line_items', 'id')) {
        same('fulfillment order', o.id, o.order_number, at);
        for (const line of o.line_items ?? [])
          if (line.fulfillment_order_id !== o.id) problems.push(`${at}: line ${line.id} of another fulfillment order`);
      }
      // Orders belong to one customer; subscription orders to one billing cycle.
      if (has(o, 'number', 'user', 'lines')) same('order customer', o.number, o.user?.id, at);
      if (has(o, 'order', 'user', 'amount_available_for_refund')) same('order customer', o.order, o.user?.id, at);
      if (has(o, 'order', 'requester', 'comments')) same('order customer', o.order, o.requester, at);
      if (has(o, 'interval', 'orders', 'id', 'user')) {
        for (const ref of o.orders ?? []) {
          same('subscription order', `${o.id}#${ref.billing_cycle}`, ref.order_number, at);
          same('order customer', ref.order_number, o.user?.id, at);
        }
      }
      if (has(o, 'subscription', 'order') && o.subscription)
        same('subscription order', `${o.subscription.id}#${o.subscription.billing_cycle}`, o.order, at);
      // Transactions: one store, one vocabulary.
      if (has(o, 'statement_descriptor', 'type')) {
        descriptors.add(o.statement_descriptor);
        transactionTypes.add(o.type);
      }
      if (has(o, 'available_currencies', 'primary_domain', 'name')) storeNames.add(o.name);
      // Time runs forward.
      const ORDERED: [string, string][] = [
        ['created_at', 'updated_at'],
        ['date_created', 'date_updated'],
        ['created_at', 'date_placed'],
      ];
      for (const [from, to] of ORDERED) {
        if (typeof o[from] === 'string' && typeof o[to] === 'string' && Date.parse(o[to]) < Date.parse(o[from]))
          problems.push(`${at}: ${to} ${o[to]} before ${from} ${o[from]}`);
      }
    }
  }

  it('the same id, email, SKU or order line means the same thing in every example', () => {
    expect(conflicts).toEqual([]);
    expect(seen.get('customer')?.size).toBeGreaterThanOrEqual(3);
    expect(seen.get('order line')?.size).toBeGreaterThan(3);
    expect(seen.get('subscription order')?.size).toBeGreaterThan(3);
  });

  it('people, fulfillment order lines and timestamps agree with themselves', () => {
    expect(problems).toEqual([]);
  });

  it('transactions come from the one store of GET /store/, with one type vocabulary', () => {
    expect([...storeNames]).toHaveLength(1);
    expect([...descriptors]).toEqual([...storeNames].map((name) => name.toUpperCase()));
    const vocabulary = new Set(['authorization', 'capture', 'sale', 'refund', 'void']);
    expect([...transactionTypes].filter((type) => !vocabulary.has(type))).toEqual([]);
  });
});
