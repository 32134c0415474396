// The limits of spec §8 (and the int32 bounds of §2) are in the bundles and work: each case
// takes the operation's own request example, changes one field and validates it.
import { describe, expect, it } from 'vitest';
import { validateAgainst } from '../helpers/ajv.ts';
import { type ApiVersion, deref, type Json, loadBundle, operationsOf, VERSIONS } from '../helpers/bundles.ts';

function requestOf(operationId: string): { version: ApiVersion; schema: Json; example: Json } {
  for (const version of VERSIONS) {
    const found = operationsOf(version).find((o) => o.operation.operationId === operationId);
    if (!found) continue;
    const bundle = loadBundle(version);
    const media = deref(bundle, found.operation.requestBody).content['application/json'];
    const example = media.example ?? deref(bundle, Object.values<Json>(media.examples)[0]).value;
    return { version, schema: media.schema, example };
  }
  throw new Error(`no operation ${operationId}`);
}

type Case = [operationId: string, change: Json, accepted: boolean];

const CASES: Case[] = [
  ['createGiftCard', { initial: '12345678901.00' }, false],
  ['createGiftCard', { initial: '1.001' }, false],
  ['createGiftCard', { initial: '-5' }, true],
  ['createGiftCard', { initial: '9999999999.99' }, true],
  ['createGiftCard', { initial: '25' }, true],
  ['createGiftCard', { currency: 'EURO' }, false],
  ['createGiftCard', { currency: 'EUR' }, true],
  ['createGiftCard', { expired_at: null }, true],
  ['createGiftCard', { expired_at: 'next week' }, false],
  ['captureTransaction', { amount: '12345678.00' }, false],
  ['captureTransaction', { amount: '1234567.89' }, true],
  ['captureTransaction', { amount: '0.001' }, false],
  ['captureTransaction', { amount: null }, true],
  ['updatePage', { title: 'x'.repeat(201) }, false],
  ['updatePage', { title: 'x'.repeat(200) }, true],
  ['updateMetadataDefinition', { name: 'n'.repeat(256) }, false],
  ['updateMetadataDefinition', { name: 'n'.repeat(255) }, true],
  ['updateMetadataDefinition', { object: 'basket' }, false],
  ['addOrderLineItems', { lines: [{ product_id: 7, quantity: 2147483648 }] }, false],
  ['addOrderLineItems', { lines: [{ product_id: 7, quantity: 2147483647 }] }, true],
  ['addOrderLineItems', { lines: [{ product_id: 7, quantity: 1.5 }] }, false],
  ['updateTicket', { assignee: null }, true],
  ['updateTicket', { assignee: 'anna' }, false],
  ['updateTicket', { priority: 'urgent' }, false],
  ['updateTicket', { from_email: 'not-an-email' }, false],
];

describe('request limits', () => {
  it.each(CASES)('%s with %j is %s', (operationId, change, accepted) => {
    const { version, schema, example } = requestOf(operationId);
    const errors = validateAgainst(version, schema, { ...example, ...change });
    if (accepted) expect(errors).toEqual([]);
    else expect(errors.length).toBeGreaterThan(0);
  });

  it.each(['createGiftCard', 'addOrderLineItems', 'updatePage'])(
    '%s refuses a body without its required fields',
    (id) => {
      const { version, schema } = requestOf(id);
      expect(validateAgainst(version, schema, {}).length).toBeGreaterThan(0);
    },
  );
});

describe('int32 bounds of response counters', () => {
  const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  it.each([
    ['Quantity', 2147483647, true],
    ['Quantity', 2147483648, false],
    ['Quantity', -1, false],
    ['StockCounter', -2147483648, true],
    ['StockCounter', -2147483649, false],
    ['StockCounter', 2147483648, false],
  ] as const)('%s %d accepted: %s', (name, value, accepted) => {
    const version = VERSIONS.find((v) => loadBundle(v).components?.schemas?.[name]);
    expect(version, `${name} is in no bundle`).toBeDefined();
    expect(validateAgainst(version as ApiVersion, schema(name), value).length === 0).toBe(accepted);
  });
});
