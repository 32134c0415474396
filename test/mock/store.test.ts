/**
 * The data-backed mock (issue #10): a deterministic seeded store whose related ids agree, reads that
 * mean what they say (ids, filters applied or reported as ignored), real cursor pagination walked to
 * the end by this package's paginate(), writes that persist with their documented effects, one
 * store seen in each version's shape, per-token isolation, reset, and fixtures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EXIT } from '../../src/cli/index.ts';
import { createAdminClient, paginate } from '../../src/client/index.ts';
import { State } from '../../src/mock/collection-state.ts';
import {
  decodeCursor,
  FixtureError,
  generateStore,
  IGNORED_FILTERS_HEADER,
  type MockFixtures,
  type MockServer,
  SEEDED_COUNTS,
  startMock,
} from '../../src/mock/index.ts';
import { CLI } from '../helpers/process.ts';
import { bundles, engineOf, send } from './engine.ts';
import { call, freshToken } from './http.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: records are read loosely.
type Rec = Record<string, any>;
const seeded = generateStore(bundles, { seed: 'store-admin' });
const ids = (records: Rec[] = []) => records.map((r) => r.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** The key the next create of a collection gets: above every key of the seed. */
const nextId = (collection: string) =>
  (seeded[collection] ?? []).reduce((max, r) => Math.max(max, Number(r.id)), 0) + 1;

describe('the seeded store', () => {
  it('is byte-identical for the same seed, and differs for another', () => {
    expect(JSON.stringify(generateStore(bundles, { seed: 'store-admin' }))).toBe(JSON.stringify(seeded));
    expect(JSON.stringify(generateStore(bundles, { seed: 'other' }))).not.toBe(JSON.stringify(seeded));
    expect(JSON.stringify(engineOf().snapshot())).toBe(JSON.stringify(seeded));
  });

  it('has records 1 to at least 40 of every resource addressed by id, and orders from "1001"', () => {
    for (const collection of [
      'subscriptions',
      'transactions',
      'fulfillmentOrders',
      'tickets',
      'stockrecords',
      'metadata',
      'pages',
      'giftCards',
    ]) {
      const count = SEEDED_COUNTS[collection as keyof typeof SEEDED_COUNTS];
      expect(count).toBeGreaterThanOrEqual(40);
      expect(ids(seeded[collection]).slice(0, count)).toEqual(range(1, count));
    }
    expect(seeded.orders?.slice(0, SEEDED_COUNTS.orders).map((o) => o.number)).toEqual(
      range(1001, 1000 + SEEDED_COUNTS.orders).map(String),
    );
  });

  it('shows every enum state: subscription status, fulfillment status × request_status, ticket status × priority', () => {
    const subs = new Set(seeded.subscriptions?.map((s) => s.status));
    expect([...subs].sort()).toEqual(['active', 'canceled', 'past_due', 'paused', 'retrying']);
    const pairs = new Set(seeded.fulfillmentOrders?.map((f) => `${f.status}/${f.request_status}`));
    expect(pairs.size).toBe(7 * 8);
    const tickets = new Set(seeded.tickets?.map((t) => `${t.status}/${t.priority}`));
    expect(tickets.size).toBe(5 * 3);
  });

  it('keeps related ids in agreement, both ways', () => {
    const numbers = new Set(seeded.orders?.map((o) => o.number));
    const order = (number: string) => seeded.orders?.find((o) => o.number === number) as Rec;
    for (const fo of seeded.fulfillmentOrders ?? []) expect(numbers).toContain(fo.order_number);
    for (const ticket of seeded.tickets ?? []) expect(numbers).toContain(ticket.order);
    for (const sub of seeded.subscriptions ?? []) {
      for (const ref of sub.orders) {
        expect(order(ref.order_number).subscriptions).toContainEqual({ billing_cycle: ref.billing_cycle, id: sub.id });
      }
      expect(sub.num_orders).toBe(sub.orders.length);
    }
    for (const transaction of seeded.transactions ?? []) {
      expect(order(transaction.order).transactions.map((t: Rec) => t.id)).toContain(transaction.id);
      if (!transaction.subscription) continue;
      const sub = seeded.subscriptions?.find((s) => s.id === transaction.subscription.id);
      expect(sub?.orders.map((o: Rec) => o.order_number)).toContain(transaction.order);
    }
    for (const fulfillment of seeded.fulfillments ?? []) expect(numbers).toContain(fulfillment.order_number);
  });
});

describe('reads', () => {
  const engine = engineOf();

  it('GET by id answers that record, for every id; an unknown id is a 404 naming it', async () => {
    for (const id of range(1, 50)) {
      const ticket = await send(engine, 'GET', `/tickets/${id}/`);
      expect(ticket.status).toBe(200);
      expect(ticket.json.id).toBe(id);
    }
    expect((await send(engine, 'GET', '/stockrecords/45/')).json.id).toBe(45);
    expect((await send(engine, 'GET', '/orders/1040/fulfillments/')).json.order_number).toBe('1040');
    for (const path of [
      '/tickets/51/',
      '/stockrecords/0/',
      '/orders/999/fulfillments/',
      '/subscriptions/77/transactions/',
    ]) {
      const missing = await send(engine, 'GET', path);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/problem+json');
      expect(missing.json.detail).toMatch(/ (51|0|999|77)\./);
      expect(missing.json.validation[0]).toMatchObject({ rule: 'exists' });
    }
  });

  const all = async (path: string, query = '', version?: string) => {
    const out: Rec[] = [];
    let next: string | null = `http://mock.test${path}${query ? `?${query}` : ''}`;
    while (next) {
      const page = await send(engine, 'GET', next.slice('http://mock.test'.length), { ...(version && { version }) });
      expect(page.status).toBe(200);
      out.push(...page.json.results);
      next = page.json.next;
    }
    return out;
  };

  it('applies enum filters, in the repeated and the comma form', async () => {
    const canceled = await all('/subscriptions/', 'status=canceled');
    expect(canceled.length).toBe(9);
    expect(canceled.every((s) => s.status === 'canceled')).toBe(true);
    const repeated = await all('/subscriptions/', 'status=active&status=paused');
    const comma = await all('/subscriptions/', 'status=active,paused');
    expect(ids(repeated)).toEqual(ids(comma));
    expect(new Set(repeated.map((s) => s.status))).toEqual(new Set(['active', 'paused']));
    const held = await all('/fulfillment-orders/', 'status=on_hold&request_status=requested,accepted');
    expect(held.map((f) => `${f.status}/${f.request_status}`).sort()).toEqual([
      'on_hold/accepted',
      'on_hold/requested',
    ]);
  });

  it('applies boolean, string-equality and date-range filters', async () => {
    const test = await all('/subscriptions/', 'is_test=true');
    expect(ids(test)).toEqual(ids(seeded.subscriptions?.filter((s) => s.is_test)));
    const someone = seeded.subscriptions?.[4] as Rec;
    const byEmail = await all('/subscriptions/', `customer_email=${encodeURIComponent(someone.user.email)}`);
    expect(byEmail.length).toBeGreaterThan(0);
    expect(byEmail.every((s) => s.user.email === someone.user.email)).toBe(true);
    const byOrder = await all('/fulfillment-orders/', 'order_number=1005');
    expect(ids(byOrder)).toEqual(ids(seeded.fulfillmentOrders?.filter((f) => f.order_number === '1005')));
    const from = '2024-03-01';
    const to = '2024-04-15';
    const inRange = await all('/fulfillment-orders/', `date_created_from=${from}&date_created_to=${to}`);
    const expected = seeded.fulfillmentOrders?.filter(
      (f) => f.created_at.slice(0, 10) >= from && f.created_at.slice(0, 10) <= to,
    );
    expect(ids(inRange)).toEqual(ids(expected));
    expect(inRange.length).toBeGreaterThan(0);
    const google = await all('/subscriptions/', 'utm_source=google');
    expect(google.every((s) => s.attribution.utm_source === 'google')).toBe(true);
  });

  it('lists the fulfillment orders assigned to a location, by assignment status (mapped from request_status)', async () => {
    const requested = await all(
      '/assigned-fulfillment-orders/',
      'location_id=12&assignment_status=fulfillment_requested',
    );
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.every((f) => f.assigned_location.id === 12 && f.request_status === 'requested')).toBe(true);
    const cancel = await all('/assigned-fulfillment-orders/', 'assignment_status=cancellation_requested');
    expect(ids(cancel)).toEqual(range(29, 35));
  });

  it('accepts the filters whose meaning the spec does not show, and says it ignored them', async () => {
    const page = await send(engine, 'GET', '/subscriptions/?search_text=anna&product=5&status=active');
    expect(page.status).toBe(200);
    expect(page.headers.get(IGNORED_FILTERS_HEADER)).toBe('search_text, product');
    expect(page.json.results.every((s: Rec) => s.status === 'active')).toBe(true);
    expect((await send(engine, 'GET', '/subscriptions/?status=active')).headers.get(IGNORED_FILTERS_HEADER)).toBeNull();
    expect((await send(engine, 'GET', '/fulfillment-orders/?sku=A')).headers.get(IGNORED_FILTERS_HEADER)).toBe('sku');
  });

  it('shows one subscription in each version’s shape, same id', async () => {
    const v2024 = (await send(engine, 'GET', '/subscriptions/?status=paused', { version: '2024-04-01' })).json
      .results[0];
    const v2023 = (await send(engine, 'GET', '/subscriptions/?status=paused', { version: '2023-02-10' })).json
      .results[0];
    expect(v2023.id).toBe(v2024.id);
    expect(v2023.lines.map((l: Rec) => l.id)).toEqual(v2024.lines.map((l: Rec) => l.id));
    expect(v2024.lines[0]).toHaveProperty('product_id');
    expect(v2024).not.toHaveProperty('is_tax_known');
    expect(v2023.lines[0].product.id).toBe(v2024.lines[0].product_id);
    expect(v2023.lines[0].stockrecord.partner_sku).toBe(v2024.lines[0].sku);
    expect(v2023.lines[0]).not.toHaveProperty('product_id');
    expect(v2023).toHaveProperty('is_tax_known');
  });
});

describe('cursor pagination', () => {
  it('walks every list to the end with paginate(), each record once, filters kept', async () => {
    const client = createAdminClient({ baseUrl: inject('mockUrl'), token: freshToken() });
    const walk = async <T extends { id?: number | null }>(items: AsyncIterable<T>) => {
      const seen: (number | null | undefined)[] = [];
      for await (const item of items) seen.push(item.id);
      return seen;
    };
    expect(await walk(paginate(client, '/subscriptions/'))).toEqual(ids(seeded.subscriptions));
    expect(await walk(paginate(client.withVersion('2023-02-10'), '/subscriptions/'))).toEqual(
      ids(seeded.subscriptions),
    );
    expect(await walk(paginate(client, '/fulfillment-orders/'))).toEqual(ids(seeded.fulfillmentOrders));
    expect(await walk(paginate(client, '/assigned-fulfillment-orders/'))).toEqual(ids(seeded.fulfillmentOrders));
    expect(await walk(paginate(client, '/subscriptions/{id}/transactions/', { params: { path: { id: 1 } } }))).toEqual(
      range(1, 25),
    );
    expect(
      await walk(paginate(client, '/subscriptions/', { params: { query: { status: ['active', 'past_due'] } } })),
    ).toEqual(seeded.subscriptions?.filter((s) => ['active', 'past_due'].includes(s.status)).map((s) => s.id));
  });

  it('gives absolute next/previous URLs on the origin the request reached, null at the ends', async () => {
    const engine = engineOf();
    const origin = 'http://frontend.test:8123';
    const first = await send(engine, 'GET', '/subscriptions/?status=active&is_test=false', { origin });
    expect(first.json.previous).toBeNull();
    const activeReal = seeded.subscriptions?.filter((sub) => sub.status === 'active' && !sub.is_test) ?? [];
    expect(activeReal.length).toBeLessThanOrEqual(10);
    expect(first.json.results).toHaveLength(activeReal.length);
    expect(first.json.next).toBeNull();
    const page1 = await send(engine, 'GET', '/fulfillment-orders/?request_status=pending,requested', { origin });
    expect(page1.json.results).toHaveLength(10);
    expect(page1.json.next).toMatch(
      /^http:\/\/frontend\.test:8123\/fulfillment-orders\/\?request_status=pending%2Crequested&cursor=/,
    );
    const page2 = await send(engine, 'GET', page1.json.next.slice(origin.length), { origin });
    const pendingOrRequested = ids(
      seeded.fulfillmentOrders?.filter((f) => ['pending', 'requested'].includes(f.request_status)),
    );
    expect(pendingOrRequested.length).toBeGreaterThan(10);
    expect(page2.json.results.map((f: Rec) => f.id)).toEqual(pendingOrRequested.slice(10, 20));
    expect(page2.json.next === null).toBe(pendingOrRequested.length <= 20);
    const back = await send(engine, 'GET', page2.json.previous.slice(origin.length), { origin });
    expect(back.json.results.map((f: Rec) => f.id)).toEqual(page1.json.results.map((f: Rec) => f.id));
    expect(back.json.previous).toBeNull();
    const viaHttp = await call('GET', '/fulfillment-orders/', { token: freshToken() });
    expect(viaHttp.json.next).toMatch(new RegExp(`^${inject('mockUrl')}/fulfillment-orders/\\?cursor=`));
  });

  it('keeps a cursor stable when records are added', async () => {
    const engine = engineOf();
    const page1 = await send(engine, 'GET', '/fulfillment-orders/');
    const moved = await send(engine, 'POST', '/fulfillment-orders/3/move/', { body: { new_location_id: 40 } });
    expect(moved.json.moved_fulfillment_order.id).toBe(nextId('fulfillmentOrders'));
    const page2 = await send(engine, 'GET', page1.json.next.slice('http://mock.test'.length));
    expect(page2.json.results.map((f: Rec) => f.id)).toEqual(ids(seeded.fulfillmentOrders).slice(10, 20));
  });

  it('refuses a cursor it never issued, naming cursor', async () => {
    const engine = engineOf();
    for (const cursor of ['abc', 'bjo', 'eDox', 'cD0yMDI0LTA1LTAyKzA5JTNBMTQlM0EyNw', '%%%']) {
      const response = await send(engine, 'GET', `/subscriptions/?cursor=${cursor}`);
      expect(response.status).toBe(400);
      expect(response.json.validation).toEqual([expect.objectContaining({ field: 'query.cursor', rule: 'cursor' })]);
    }
    expect(decodeCursor('bjoxMA')).toEqual({ direction: 'n', key: 10 });
  });

  it('uses the page size option', async () => {
    const engine = engineOf({ pageSize: 7 });
    const page = await send(engine, 'GET', '/subscriptions/');
    expect(page.json.results).toHaveLength(7);
  });
});

describe('writes', () => {
  it('PATCH a ticket: the next GET shows it, with the comment appended', async () => {
    const engine = engineOf();
    const before = (await send(engine, 'GET', '/tickets/7/')).json;
    const patched = await send(engine, 'PATCH', '/tickets/7/', {
      body: { status: 'solved', priority: 'low', tags: ['refund'], comment: { body: 'Refunded.', is_public: false } },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.id).toBe(7);
    const after = (await send(engine, 'GET', '/tickets/7/')).json;
    expect(after).toMatchObject({ id: 7, status: 'solved', priority: 'low', tags: ['refund'] });
    expect(after.comments).toHaveLength(before.comments.length + 1);
    expect(after.comments.at(-1)).toMatchObject({ body: 'Refunded.', is_public: false });
  });

  it('PUT a page and PATCH a metadata definition persist', async () => {
    const engine = engineOf();
    await send(engine, 'PUT', '/pages/5/', { body: { title: 'Care guide', slug: 'care' } });
    expect((await send(engine, 'PUT', '/pages/5/', { body: { title: 'Care guide 2' } })).json).toMatchObject({
      id: 5,
      title: 'Care guide 2',
      slug: 'care',
    });
    const meta = await send(engine, 'PATCH', '/metadata/6/', { body: { name: 'Fabric', enable_filter: true } });
    expect(meta.json).toMatchObject({ id: 6, name: 'Fabric', enable_filter: true });
  });

  it('POST /gift-cards/ creates with a fresh id each time', async () => {
    const engine = engineOf();
    const first = await send(engine, 'POST', '/gift-cards/', { body: { currency: 'EUR', initial: '50' } });
    const second = await send(engine, 'POST', '/gift-cards/', { body: { currency: 'CHF', initial: '5.5' } });
    expect([first.json.id, second.json.id]).toEqual([nextId('giftCards'), nextId('giftCards') + 1]);
    expect(first.json).toMatchObject({ initial: '50.00', balance: '50.00', currency: 'EUR' });
    expect(engine.export('store-test').giftCards).toHaveLength((seeded.giftCards?.length ?? 0) + 2);
  });

  it('renew: a new order, num_orders + 1; retry: status active and one more transaction', async () => {
    const engine = engineOf();
    const sub = seeded.subscriptions?.find((s) => s.status === 'past_due') as Rec;
    const renewed = (await send(engine, 'POST', `/subscriptions/${sub.id}/renew/`)).json;
    const next = String((seeded.orders ?? []).reduce((max, o) => Math.max(max, Number(o.number)), 0) + 1);
    expect(renewed.num_orders).toBe(sub.num_orders + 1);
    expect(renewed.orders.at(-1)).toEqual({ billing_cycle: sub.num_orders + 1, order_number: next });
    expect(renewed.next_renewal_date > sub.next_renewal_date).toBe(true);
    const order = await send(engine, 'POST', `/orders/${next}/add-line-items/`, {
      body: { lines: [{ product_id: 1, quantity: 1 }] },
    });
    expect(order.json.subscriptions).toEqual([{ billing_cycle: sub.num_orders + 1, id: sub.id }]);
    // The renewal of a past_due subscription is unpaid; the added lines were charged (one sale).
    const countBefore = (seeded.transactions?.filter((t) => t.subscription?.id === sub.id).length ?? 0) + 1;
    const retried = (await send(engine, 'POST', `/subscriptions/${sub.id}/retry/`, { body: {} })).json;
    expect(retried.status).toBe('active');
    const listed = (await send(engine, 'GET', `/subscriptions/${sub.id}/transactions/`)).json.results;
    expect(listed).toHaveLength(countBefore + 1);
    const canceled = seeded.subscriptions?.find((s) => s.status === 'canceled') as Rec;
    const refused = await send(engine, 'POST', `/subscriptions/${canceled.id}/renew/`);
    expect(refused.status).toBe(422);
    expect(refused.json.validation[0]).toMatchObject({ field: 'path.id', rule: 'state' });
  });

  it('move: the copy at the new location, the original closed; fulfillment request: requested, split by lines', async () => {
    const engine = engineOf();
    const moved = (await send(engine, 'POST', '/fulfillment-orders/4/move/', { body: { new_location_id: 31 } })).json;
    const fo = nextId('fulfillmentOrders');
    expect(moved.moved_fulfillment_order).toMatchObject({ id: fo, status: 'open', request_status: 'pending' });
    expect(moved.moved_fulfillment_order.assigned_location.id).toBe(31);
    expect(moved.original_fulfillment_order).toMatchObject({ id: 4, status: 'closed', line_items: [] });
    const listed = (await send(engine, 'GET', `/fulfillment-orders/?fulfillment_order_id=${fo}`)).json.results;
    expect(listed[0].assigned_location.id).toBe(31);
    // Moving the emptied, closed original again is refused by the state table (path.id).
    expect(
      (await send(engine, 'POST', '/fulfillment-orders/4/move/', { body: { new_location_id: 12 } })).json.validation[0],
    ).toMatchObject({ field: 'path.id', rule: 'state' });
    const unknown = await send(engine, 'POST', '/fulfillment-orders/2/move/', { body: { new_location_id: 99 } });
    expect(unknown.status).toBe(422);
    expect(unknown.json.validation[0].field).toBe('body.new_location_id');

    const whole = (
      await send(engine, 'POST', '/fulfillment-orders/1/fulfillment-request/', { body: { message: 'Go' } })
    ).json;
    expect(whole.original_fulfillment_order.request_status).toBe('requested');
    expect(whole.unrequested_fulfillment_order).toBeNull();
    expect(whole.original_fulfillment_order.merchant_requests.at(-1)).toMatchObject({
      message: 'Go',
      type: 'fulfill_request',
    });
    const twoLines = seeded.fulfillmentOrders?.find(
      (f) => f.request_status === 'pending' && f.line_items.length === 2 && !['closed', 'canceled'].includes(f.status),
    ) as Rec;
    const split = (
      await send(engine, 'POST', `/fulfillment-orders/${twoLines.id}/fulfillment-request/`, {
        body: { fulfillment_order_line_items: [{ id: twoLines.line_items[0].id, quantity: 1 }] },
      })
    ).json;
    expect(split.requested_fulfillment_order.request_status).toBe('requested');
    expect(split.requested_fulfillment_order.line_items).toHaveLength(1);
    expect(split.unrequested_fulfillment_order).toMatchObject({ id: twoLines.id, request_status: 'pending' });
    expect(split.unrequested_fulfillment_order.line_items).toHaveLength(1);
  });

  it('cancellation accept: cancel_accepted and canceled, then refused', async () => {
    const engine = engineOf();
    const accepted = await send(engine, 'POST', '/fulfillment-orders/30/cancellation-request/accept/', { body: {} });
    expect(accepted.json).toMatchObject({ id: 30, request_status: 'cancel_accepted', status: 'canceled' });
    const again = await send(engine, 'POST', '/fulfillment-orders/30/cancellation-request/accept/', { body: {} });
    expect(again.status).toBe(422);
  });

  it('add-line-items: lines appended, totals up by price × quantity', async () => {
    const engine = engineOf();
    const before = seeded.orders?.[4] as Rec;
    const after = (
      await send(engine, 'POST', `/orders/${before.number}/add-line-items/`, {
        body: { lines: [{ product_id: 2, quantity: 3 }] },
      })
    ).json;
    expect(after.lines).toHaveLength(before.lines.length + 1);
    expect(after.lines.at(-1)).toMatchObject({ product_id: 2, quantity: 3, price_incl_tax: '12.90' });
    expect(Number(after.total_incl_tax)).toBeCloseTo(Number(before.total_incl_tax) + 3 * 12.9, 2);
    expect(after.transactions).toHaveLength(before.transactions.length + 1);
  });

  it('capture: a capture transaction up to what is left, else 422 naming amount', async () => {
    const engine = engineOf();
    const auth = seeded.transactions?.find((t) => t.type === 'authorization') as Rec;
    const over = await send(engine, 'POST', `/transactions/${auth.id}/capture/`, {
      body: { amount: (Number(auth.amount) + 0.01).toFixed(2) },
    });
    expect(over.status).toBe(422);
    expect(over.json.validation[0]).toMatchObject({ field: 'body.amount', rule: 'maximum' });
    const part = await send(engine, 'POST', `/transactions/${auth.id}/capture/`, { body: { amount: '1.00' } });
    expect(part.json).toMatchObject({
      type: 'capture',
      parent_id: auth.id,
      amount: '1.00',
      id: nextId('transactions'),
    });
    const rest = await send(engine, 'POST', `/transactions/${auth.id}/capture/`, { body: {} });
    expect(rest.json.amount).toBe((Number(auth.amount) - 1).toFixed(2));
    expect((await send(engine, 'POST', `/transactions/${auth.id}/capture/`, { body: {} })).status).toBe(422);
    const sale = seeded.transactions?.find((t) => t.type === 'sale') as Rec;
    expect(
      (await send(engine, 'POST', `/transactions/${sale.id}/capture/`, { body: {} })).json.validation[0].field,
    ).toBe('path.id');
  });

  it('a write on an unknown id is a 404', async () => {
    const engine = engineOf();
    expect((await send(engine, 'PATCH', '/tickets/4242/', { body: { status: 'open' } })).status).toBe(404);
    expect((await send(engine, 'POST', '/orders/42/add-line-items/', { body: { lines: [] } })).status).toBe(404);
    expect((await send(engine, 'POST', '/subscriptions/4242/renew/')).status).toBe(404);
  });

  it('a refused request changes nothing; __proto__ and constructor keys change nothing', async () => {
    const engine = engineOf();
    const before = (await send(engine, 'GET', '/tickets/8/')).text;
    expect(
      (await send(engine, 'PATCH', '/tickets/8/', { body: { status: 'solved', priority: 'urgent' } })).status,
    ).toBe(422);
    expect(
      (await send(engine, 'PATCH', '/tickets/8/', { body: { status: 'solved', requester: 'someone' } })).status,
    ).toBe(422);
    expect((await send(engine, 'GET', '/tickets/8/')).text).toBe(before);
    const hostile = await send(engine, 'PATCH', '/tickets/8/', {
      raw: '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "subject": "Hi"}',
    });
    expect(hostile.status).toBe(200);
    expect(hostile.json.subject).toBe('Hi');
    expect(Object.keys(hostile.json)).not.toContain('constructor');
    expect(({} as Rec).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(engine.export('store-test').tickets?.[7])).toBe(Object.prototype);
  });
});

describe('isolation and reset', () => {
  it('keeps one state per bearer token, copied on write from the seed', async () => {
    const engine = engineOf();
    await send(engine, 'PATCH', '/tickets/3/', { token: 'alice', body: { subject: 'Alice was here' } });
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'alice' })).json.subject).toBe('Alice was here');
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'bob' })).json.subject).toBe(
      seeded.tickets?.[2]?.subject,
    );
  });

  it('copies only the collections a token writes to, never the seeded records', () => {
    const seed = new State(structuredClone(seeded));
    const mine = seed.clone();
    const ticket = { ...(mine.get('tickets', 3) as Rec), subject: 'mine' };
    mine.put('tickets', ticket);
    expect(mine.get('tickets', 3)?.subject).toBe('mine');
    expect(seed.get('tickets', 3)?.subject).toBe(seeded.tickets?.[2]?.subject);
    expect(mine.list('tickets')).not.toBe(seed.list('tickets'));
    expect(mine.list('subscriptions')).toBe(seed.list('subscriptions'));
    expect(mine.get('tickets', 4)).toBe(seed.get('tickets', 4));
    const cards = seeded.giftCards?.length ?? 0;
    mine.put('giftCards', { id: nextId('giftCards') });
    expect(seed.list('giftCards')).toHaveLength(cards);
    expect(mine.list('giftCards')).toHaveLength(cards + 1);
  });

  it('shares one state with sharedState', async () => {
    const engine = engineOf({ sharedState: true });
    await send(engine, 'PATCH', '/tickets/3/', { token: 'alice', body: { subject: 'Shared' } });
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'bob' })).json.subject).toBe('Shared');
    engine.reset();
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'bob' })).json.subject).toBe(
      seeded.tickets?.[2]?.subject,
    );
  });

  it('resets with POST /__mock/reset (the token sent, or all with {"scope":"all"}) and with reset()', async () => {
    const engine = engineOf();
    for (const token of ['alice', 'bob'])
      await send(engine, 'PATCH', '/tickets/3/', { token, body: { subject: token } });
    expect((await send(engine, 'POST', '/__mock/reset', { token: 'alice', body: {} })).json).toMatchObject({
      reset: 'state',
    });
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'alice' })).json.subject).toBe(
      seeded.tickets?.[2]?.subject,
    );
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'bob' })).json.subject).toBe('bob');
    const all = await send(engine, 'POST', '/__mock/reset', { token: null, body: { scope: 'all' } });
    expect(all.json).toEqual({ reset: 'all' });
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'bob' })).json.subject).toBe(
      seeded.tickets?.[2]?.subject,
    );
    await send(engine, 'PATCH', '/tickets/3/', { token: 'bob', body: { subject: 'again' } });
    await engine.reset();
    expect((await send(engine, 'GET', '/tickets/3/', { token: 'bob' })).json.subject).toBe(
      seeded.tickets?.[2]?.subject,
    );
  });

  it('mock.reset() of startMock resets the server’s states', async () => {
    const mock: MockServer = await startMock({ port: 0 });
    try {
      const token = 'reset-me';
      await call('PATCH', '/tickets/2/', { baseUrl: mock.url, token, body: { subject: 'changed' } });
      expect((await call('GET', '/tickets/2/', { baseUrl: mock.url, token })).json.subject).toBe('changed');
      await mock.reset();
      expect((await call('GET', '/tickets/2/', { baseUrl: mock.url, token })).json.subject).toBe(
        seeded.tickets?.[1]?.subject,
      );
    } finally {
      await mock.close();
    }
  });
});

describe('fixtures (--data)', () => {
  // A seeded record, typed as a fixture (MockFixtures types each resource from the generated types).
  const ticket = { ...(seeded.tickets?.[0] as Rec), id: 1, subject: 'From the fixture' } as NonNullable<
    MockFixtures['tickets']
  >[number];

  it('replaces the collections it names with its records', async () => {
    const engine = engineOf({ data: { tickets: [ticket] } });
    expect((await send(engine, 'GET', '/tickets/1/')).json.subject).toBe('From the fixture');
    expect((await send(engine, 'GET', '/tickets/2/')).status).toBe(404);
    expect((await send(engine, 'GET', '/stockrecords/2/')).status).toBe(200);
  });

  it('refuses a record that breaks the contract, naming the source, the record and the field', () => {
    expect(() =>
      // @ts-expect-error: 'urgent' is not a ticket priority, at type-check as at run time
      engineOf({ data: { tickets: [ticket, { ...ticket, id: 2, priority: 'urgent' }] }, dataSource: 'f.json' }),
    ).toThrow(
      new FixtureError(
        'f.json: tickets[1] (id 2): field priority breaks the contract (enum): Fixture record field priority: must be one of high, medium, low (received "urgent")',
      ),
    );
    expect(() => engineOf({ data: { gadgets: [] } as never })).toThrow(/unknown resource "gadgets"/);
    expect(() => engineOf({ data: { tickets: [ticket, ticket] } })).toThrow(/duplicate id 1/);
  });

  describe('from the command line', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'mock-data-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('exits 2 on a bad record, one line naming file, record and field', async () => {
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify({ pages: [{ ...(seeded.pages?.[0] as Rec), title: 42 }] }));
      const child = spawn(process.execPath, [...CLI, 'mock', '--port', '0', '--data', file], {
        cwd: ROOT,
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(EXIT.usage);
      expect(stderr).toContain(`${file}: pages[0] (id 1): field title breaks the contract (type)`);
    });
  });
});

describe('Prefer on the data-backed mock (served from the bundles’ examples)', () => {
  const engine = engineOf();
  it('answers a named example, a declared status, and 404 naming what exists', async () => {
    const example = await send(engine, 'GET', '/subscriptions/', { headers: { Prefer: 'example=past_due' } });
    expect(example.status).toBe(200);
    expect(example.json.results[0].status).toBe('past_due');
    const unauthorized = await send(engine, 'GET', '/store/', { headers: { Prefer: 'code=401' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.json.detail).toContain('Prefer: code=401');
    const unknown = await send(engine, 'GET', '/subscriptions/', { headers: { Prefer: 'example=cancelled' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toContain('active, past_due');
    expect((await send(engine, 'GET', '/store/', { headers: { Prefer: 'code=404' } })).json.detail).toContain(
      '200 (examples: store)',
    );
    const refused = await send(engine, 'POST', '/gift-cards/', {
      headers: { Prefer: 'example=eur' },
      body: { currency: 'EURO', initial: '1' },
    });
    expect(refused.status).toBe(422);
  });
});
