// The order of checks (issue 26 item 5): the request is checked against the contract (path, query,
// body) before any store rule, and the request's references to other records before the addressed
// record's state. One case per write: a request both invalid by the contract and refused by a
// store rule (the state table, the write's own rules, a record that does not exist) is answered
// with the contract's refusal naming the field. On main before: the move case below answered
// "path.id: fulfillment order 7 has status canceled".
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../src/mock/model/index.ts';
import { TRANSITIONS } from '../../src/mock/transitions.ts';
import { engineOf, send } from './engine.ts';

const engine = engineOf();
const state = engine.inspect();
const refusedBy = (operationId: string, collection: string): Rec => {
  const transition = TRANSITIONS.find((t) => t.operationId === operationId);
  const found = state.list(collection).find((r) => transition?.refuses(r) !== undefined);
  if (!found) throw new Error(`no ${collection} record the state table refuses for ${operationId}`);
  return found;
};
const canceled = state.list('fulfillmentOrders').find((r) => r.status === 'canceled') as Rec;

/** [operation, method, path, the store rule it also breaks, body, the field the contract names]. */
const CASES: [string, string, string, string, unknown, string][] = [
  ['renewSubscription', 'POST', '/subscriptions/1.5/renew/', 'no such subscription', undefined, 'path.id'],
  [
    'retrySubscription',
    'POST',
    `/subscriptions/${refusedBy('retrySubscription', 'subscriptions').id}/retry/`,
    'the state table',
    [],
    'body',
  ],
  [
    'moveFulfillmentOrder',
    'POST',
    `/fulfillment-orders/${canceled.id}/move/`,
    'the state table',
    { new_location_id: '12' },
    'body.new_location_id',
  ],
  [
    'sendFulfillmentRequest',
    'POST',
    `/fulfillment-orders/${canceled.id}/fulfillment-request/`,
    'the state table',
    { notify: 'yes' },
    'body.notify',
  ],
  [
    'acceptCancellationRequest',
    'POST',
    `/fulfillment-orders/${canceled.id}/cancellation-request/accept/`,
    'the state table',
    { message: 5 },
    'body.message',
  ],
  [
    'captureTransaction',
    'POST',
    `/transactions/${refusedBy('captureTransaction', 'transactions').id}/capture/`,
    'the state table',
    { amount: '1.234' },
    'body.amount',
  ],
  [
    'createGiftCard',
    'POST',
    '/gift-cards/',
    'a negative initial amount',
    { initial: '-5', currency: 'EURO' },
    'body.currency',
  ],
  ['updateTicket', 'PATCH', '/tickets/99999999/', 'no such ticket', { priority: 'urgent' }, 'body.priority'],
  ['updatePage', 'PUT', '/pages/99999999/', 'no such page', { title: 'x'.repeat(201) }, 'body.title'],
  [
    'updateMetadataDefinition',
    'PATCH',
    '/metadata/99999999/',
    'no such definition',
    { name: 'x'.repeat(256) },
    'body.name',
  ],
  [
    'addOrderLineItems',
    'POST',
    '/orders/no-such-order/add-line-items/',
    'no such order',
    { lines: [{ product_id: 'one', quantity: 1 }] },
    'body.lines[0].product_id',
  ],
];

describe('the contract is checked before the store', () => {
  it('covers every write of the state table', () => {
    for (const { operationId } of TRANSITIONS) expect(CASES.map((c) => c[0])).toContain(operationId);
  });

  it.each(CASES)(
    '%s: %s %s (also refused by %s) names the contract field',
    async (_, method, path, _rule, body, field) => {
      const result = await send(engine, method, path, body === undefined ? {} : { body });
      expect(result.status).toBe(422);
      expect(result.json.type).toBe('urn:store-admin-mock:invalid-request');
      expect(result.json.validation.map((v: { field: string }) => v.field)).toContain(field);
    },
  );
});

describe("the request's references before the addressed record's state", () => {
  it('a move of a canceled fulfillment order to a location that does not exist names body.new_location_id', async () => {
    // 2147483648 is a valid integer by the contract (the spec bounds quantities to int32, not ids).
    const result = await send(engine, 'POST', `/fulfillment-orders/${canceled.id}/move/`, {
      body: { new_location_id: 2147483648 },
    });
    expect(result.status).toBe(422);
    expect(result.json.validation).toEqual([
      expect.objectContaining({ field: 'body.new_location_id', rule: 'exists' }),
    ]);
    expect(result.json.detail).toMatch(/^body\.new_location_id: no location 2147483648 \(the mock's locations: /);
  });

  it('a move of a canceled fulfillment order to an existing location is refused by the state table', async () => {
    const location = state.list('locations')[0] as Rec;
    const result = await send(engine, 'POST', `/fulfillment-orders/${canceled.id}/move/`, {
      body: { new_location_id: location.id },
    });
    expect(result.status).toBe(422);
    expect(result.json.validation).toEqual([expect.objectContaining({ field: 'path.id', rule: 'state' })]);
  });
});
