/**
 * Writes follow the state table (src/mock/transitions.ts, docs/mock.md "State table"), the limits
 * bound what a token can hold (src/mock/limits.ts) and every refusal comes from the one problem
 * catalogue (src/http/catalogue.ts). That versions come from src/contract alone is
 * test/architecture/version-literals.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { VERSIONS } from '../../src/contract/index.ts';
import { PROBLEMS, type Rec } from '../../src/mock/index.ts';
import { supportedActions } from '../../src/mock/transitions.ts';
import { engineOf, send } from './engine.ts';

const engine = engineOf();
const seed = engine.inspect();
let tokens = 0;
const fresh = () => `state-table-${++tokens}`;
const refusal = (result: { status: number; json: Rec }) => ({ status: result.status, ...result.json.validation?.[0] });
const find = (collection: string, fits: (r: Rec) => boolean) => seed.list(collection).find(fits) as Rec;

describe('the state table', () => {
  const fo = (fits: (r: Rec) => boolean) => find('fulfillmentOrders', fits);
  const move = (id: number, location: number) =>
    send(engine, 'POST', `/fulfillment-orders/${id}/move/`, { token: fresh(), body: { new_location_id: location } });
  const elsewhere = (r: Rec) => [12, 14, 31, 40].find((l) => l !== r.assigned_location.id) as number;

  it.each(['closed', 'canceled'])(
    'move refuses a %s fulfillment order, naming path.id and the state',
    async (status) => {
      const record = fo((r) => r.status === status && r.line_items.length > 0);
      const result = await move(record.id, elsewhere(record));
      expect(refusal(result)).toMatchObject({ status: 422, field: 'path.id', rule: 'state' });
      expect(result.json.detail).toContain(`has status ${status}`);
      expect(result.json.type).toBe(PROBLEMS.refusedByStore.type);
    },
  );

  it('move refuses an emptied fulfillment order, and a move to its own location', async () => {
    const record = fo((r) => r.status === 'open' && r.line_items.length > 0);
    const token = fresh();
    const location = elsewhere(record);
    const first = await send(engine, 'POST', `/fulfillment-orders/${record.id}/move/`, {
      token,
      body: { new_location_id: location },
    });
    expect(first.json.original_fulfillment_order).toMatchObject({
      line_items: [],
      status: 'closed',
      supported_actions: [],
    });
    const again = await send(engine, 'POST', `/fulfillment-orders/${record.id}/move/`, {
      token,
      body: { new_location_id: record.assigned_location.id },
    });
    expect(refusal(again)).toMatchObject({ status: 422, field: 'path.id', rule: 'state' });
    const here = await move(record.id, record.assigned_location.id);
    expect(refusal(here)).toMatchObject({ status: 422, field: 'body.new_location_id', rule: 'state' });
  });

  it('supported_actions agree with what move and fulfillment-request accept, for every fulfillment order', async () => {
    for (const record of seed.list('fulfillmentOrders')) {
      expect(record.supported_actions).toEqual(supportedActions(record));
      const moved = await move(record.id, elsewhere(record));
      expect(moved.status === 200, `move ${record.id}`).toBe((record.supported_actions ?? []).includes('move'));
      const requested = await send(engine, 'POST', `/fulfillment-orders/${record.id}/fulfillment-request/`, {
        token: fresh(),
        body: {},
      });
      expect(requested.status === 200, `request ${record.id}`).toBe(
        (record.supported_actions ?? []).includes('request_fulfillment'),
      );
    }
  });

  it.each(['paused', 'canceled'])('renew and retry refuse a %s subscription', async (status) => {
    const sub = find('subscriptions', (r) => r.status === status);
    for (const action of ['renew', 'retry']) {
      const result = await send(engine, 'POST', `/subscriptions/${sub.id}/${action}/`, { token: fresh() });
      expect(refusal(result)).toMatchObject({ status: 422, field: 'path.id', rule: 'state' });
      expect(result.json.detail).toContain(status);
    }
  });

  it('retry refuses an active subscription: nothing unpaid', async () => {
    const sub = find('subscriptions', (r) => r.status === 'active');
    expect(
      refusal(await send(engine, 'POST', `/subscriptions/${sub.id}/retry/`, { token: fresh(), body: {} })),
    ).toMatchObject({ status: 422, field: 'path.id' });
  });

  it('renew’s payment is listed by the subscription’s transactions and by the new order, both ways', async () => {
    const sub = find('subscriptions', (r) => r.status === 'active');
    const token = fresh();
    const renewed = (await send(engine, 'POST', `/subscriptions/${sub.id}/renew/`, { token })).json;
    const number = renewed.orders.at(-1).order_number;
    const state = engine.inspect(token);
    const order = state.get('orders', number) as Rec;
    expect(order.subscriptions).toEqual([{ billing_cycle: renewed.num_orders, id: sub.id }]);
    expect(order.total_outstanding).toBe('0.00');
    const [payment] = order.transactions;
    let listed: Rec[] = [];
    for (let path = `/subscriptions/${sub.id}/transactions/`; path; ) {
      const page = (await send(engine, 'GET', path, { token })).json;
      listed = [...listed, ...page.results];
      path = page.next?.replace('http://mock.test', '');
    }
    expect(listed.find((t) => t.id === payment.id)).toMatchObject({
      order: number,
      subscription: { id: sub.id, billing_cycle: renewed.num_orders },
    });
  });

  it('add-line-items refuses empty lines and a quantity below 1', async () => {
    const lines = (body: unknown) => send(engine, 'POST', '/orders/100234/add-line-items/', { token: fresh(), body });
    expect(refusal(await lines({ lines: [] }))).toMatchObject({ status: 422, field: 'body.lines', rule: 'minItems' });
    expect(refusal(await lines({ lines: [{ product_id: 1, quantity: 0 }] }))).toMatchObject({
      status: 422,
      field: 'body.lines[0].quantity',
    });
  });

  it('a gift card’s initial and balance are the amount sent, as money: written as the API writes it or not', async () => {
    const token = fresh();
    const cents = [1, 5, 10, 99, 100, 5000, 123456, 99999999, 100000000000, 999999999999];
    const written = cents.map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);
    for (const initial of [...written, '50', '50.5', '050.00', '0.005', '1e2', '.5', '12.345']) {
      const result = await send(engine, 'POST', '/gift-cards/', { token, body: { currency: 'EUR', initial } });
      if (result.status !== 200) continue; // the contract's pattern refuses some spellings
      const money = Number(initial).toFixed(2);
      expect([initial, result.json.initial, result.json.balance]).toEqual([initial, money, money]);
      expect(result.json.code).toMatch(new RegExp(`^GC-\\w{4}-\\w{4}-${result.json.last_four}$`));
    }
  });

  it('a gift card’s initial is at least 0.01; capture with nothing left names path.id', async () => {
    for (const initial of ['-5', '0.00', '-0.01']) {
      const result = await send(engine, 'POST', '/gift-cards/', { token: fresh(), body: { currency: 'EUR', initial } });
      expect(refusal(result)).toMatchObject({ status: 422, field: 'body.initial' });
    }
    const token = fresh();
    const auth = find('transactions', (t) => t.type === 'authorization');
    expect((await send(engine, 'POST', `/transactions/${auth.id}/capture/`, { token, body: {} })).status).toBe(200);
    const nothing = await send(engine, 'POST', `/transactions/${auth.id}/capture/`, { token, body: {} });
    expect(refusal(nothing)).toMatchObject({ status: 422, field: 'path.id', rule: 'state' });
    expect(nothing.json.detail).toContain('nothing is left to capture');
  });
});

describe('limits', () => {
  it('refuses lines beyond the per-request and per-order limits, and records beyond the per-token limit, naming the limit', async () => {
    const small = engineOf({ limits: { maxLinesPerRequest: 3, maxLinesPerOrder: 6, maxRecords: 2 } });
    const line = { product_id: 1, quantity: 1 };
    const add = (n: number, token = 'limits') =>
      send(small, 'POST', '/orders/100234/add-line-items/', { token, body: { lines: Array(n).fill(line) } });
    expect(refusal(await add(4))).toMatchObject({ status: 422, field: 'body.lines', rule: 'maxLinesPerRequest' });
    expect((await add(3)).status).toBe(200);
    expect(refusal(await add(3))).toMatchObject({ status: 422, field: 'body.lines', rule: 'maxLinesPerOrder' });
    const card = () =>
      send(small, 'POST', '/gift-cards/', { token: 'cards', body: { currency: 'EUR', initial: '5.00' } });
    expect([(await card()).status, (await card()).status]).toEqual([200, 200]);
    const third = await card();
    expect(refusal(third)).toMatchObject({ status: 422, rule: 'maxRecords' });
    expect(third.json.type).toBe(PROBLEMS.limit.type);
  });

  it('refuses a write that would take a token’s state over its bytes', async () => {
    const small = engineOf({ limits: { maxStateBytes: 20_000 } });
    const result = await send(small, 'PUT', '/pages/1042/', { body: { title: 'Big', content: 'x'.repeat(30_000) } });
    expect(refusal(result)).toMatchObject({ status: 422, rule: 'maxStateBytes' });
    expect(small.inspect('store-test').revision).toBe(0);
  });

  it('counts a record the state replaces once: its own record rewritten stays under the bytes', async () => {
    const small = engineOf({ limits: { maxStateBytes: 20_000 } });
    // Five times 6 KB, the state holding one of them: counted five times, the last would be over.
    for (const title of ['One', 'Two', 'Three', 'Four', 'Five']) {
      const result = await send(small, 'PUT', '/pages/1042/', { body: { title, content: 'x'.repeat(6_000) } });
      expect(result.status).toBe(200);
    }
    const result = await send(small, 'PUT', '/pages/1/', { body: { title: 'Six', content: 'x'.repeat(15_000) } });
    expect(refusal(result)).toMatchObject({ status: 422, rule: 'maxStateBytes' });
  });
});

describe('one catalogue of problems', () => {
  it('answers every refusal with a type of the package’s catalogue, never a Prism URI', async () => {
    const types = new Set(Object.values(PROBLEMS).map((p) => p.type));
    const refusals = [
      await send(engine, 'GET', '/subscriptions/?cursor=nope'),
      await send(engine, 'PUT', '/pages/1/', { raw: 'x', headers: { 'Content-Type': 'text/plain' } }),
      await send(engine, 'PUT', '/pages/1/', { raw: '{' }),
      await send(engine, 'GET', '/nowhere/'),
      await send(engine, 'DELETE', '/store/'),
      await send(engine, 'GET', '/store/', { token: null }),
      await send(engine, 'GET', '/tickets/999999/', { version: VERSIONS.at(-1) }),
      await send(engine, 'GET', '/store/', { version: 'v0' }),
      await send(engine, 'PATCH', '/tickets/1/', { body: { status: 'urgent' } }),
      await send(engine, 'GET', '/store/', { headers: { Prefer: 'fail=429' } }),
      await send(engine, 'GET', '/store/', { headers: { Prefer: 'code=418' } }),
    ];
    for (const result of refusals) {
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect(types.has(result.json.type), `${result.status} ${result.json.type}`).toBe(true);
      expect(result.text).not.toContain('stoplight');
    }
  });
});
