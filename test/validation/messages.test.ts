// How a broken rule is worded (src/validation/message.ts), table-driven on real ajv errors, then as
// a curl user and an implementer meet it: in the mock's refusal and in a conformance finding.
import { describe, expect, it } from 'vitest';
import { loadBundles } from '../../src/contract/index.ts';
import { createMockEngine } from '../../src/mock/index.ts';
import { ajvWithBundle, Contract, explain, preview, RECEIVED_MAX, ruleMessage } from '../../src/validation/index.ts';

const ajv = ajvWithBundle({}, 'messages');
const errorsOf = (schema: object, value: unknown) => {
  const validate = ajv.compile(schema);
  validate(value);
  return validate.errors ?? [];
};

describe('ruleMessage', () => {
  const long = 'x'.repeat(100);
  it.each([
    [{ enum: ['new', 'open', 'closed'] }, 'urgent', 'must be one of new, open, closed (received "urgent")'],
    [{ enum: ['a', null] }, 'b', 'must be one of a, null (received "b")'],
    [{ type: 'integer' }, 'ten', 'must be integer (received "ten")'],
    [{ type: ['string', 'null'] }, 7, 'must be string or null (received 7)'],
    [{ const: 'x' }, 'y', 'must be x (received "y")'],
    [{ maxLength: 3 }, 'EURO', 'must NOT have more than 3 characters (received "EURO")'],
    [{ maximum: 10 }, 11, 'must be <= 10 (received 11)'],
    [{ type: 'object', required: ['initial'] }, {}, 'is required'],
    [{ maxLength: 3 }, long, `must NOT have more than 3 characters (received "${'x'.repeat(RECEIVED_MAX - 2)}…)`],
  ])('%j refusing %j: %s', (schema, value, message) => {
    const [error] = errorsOf(schema, value);
    expect(error && ruleMessage(error)).toBe(message);
  });

  it('truncates the received value to RECEIVED_MAX characters', () => {
    expect(preview('x'.repeat(100))).toHaveLength(RECEIVED_MAX);
    expect(preview({ a: 1 })).toBe('{"a":1}');
    expect(preview(undefined)).toBe('nothing');
  });
});

describe('the words a user meets', () => {
  it('a refusal names the field, the allowed values and the received value (mock)', async () => {
    const engine = createMockEngine();
    const response = await engine.handle(
      new Request('http://mock.test/tickets/1/', {
        method: 'PATCH',
        headers: { Authorization: 'Bearer messages', 'Content-Type': 'application/json' },
        body: JSON.stringify({ status: 'urgent' }),
      }),
    );
    expect(response.status).toBe(422);
    const { validation } = (await response.json()) as { validation: { field: string; message: string }[] };
    expect(validation.find((v) => v.field === 'body.status')?.message).toBe(
      'body.status: must be one of new, open, pending, solved, closed (received "urgent")',
    );
    const gift = await engine.handle(
      new Request('http://mock.test/gift-cards/', {
        method: 'POST',
        headers: { Authorization: 'Bearer messages', 'Content-Type': 'application/json' },
        body: JSON.stringify({ currency: 'E'.repeat(300), initial: '10.00' }),
      }),
    );
    const refused = (await gift.json()) as { validation: { field: string; message: string }[] };
    expect(refused.validation.find((v) => v.field === 'body.currency')?.message).toBe(
      `body.currency: must NOT have more than 3 characters (received "${'E'.repeat(RECEIVED_MAX - 2)}…)`,
    );
  });

  it('a query refusal and a path refusal read the same way', async () => {
    const engine = createMockEngine();
    const headers = { Authorization: 'Bearer messages' };
    const list = await engine.handle(new Request('http://mock.test/subscriptions/?status=bogus', { headers }));
    const listed = ((await list.json()) as { validation: { message: string }[] }).validation[0]?.message;
    expect(listed).toMatch(/^query\.status\[0\]: must be one of active, .* \(received "bogus"\)$/);
    const ticket = await engine.handle(new Request('http://mock.test/tickets/abc/', { method: 'PATCH', headers }));
    const pathed = ((await ticket.json()) as { validation: { message: string }[] }).validation[0]?.message;
    expect(pathed).toBe('path.id: must be integer (received "abc")');
  });

  it('a conformance finding says the same', () => {
    const errors = errorsOf({ type: 'object', properties: { status: { enum: ['new', 'open'] } } }, { status: 'x' });
    expect(explain(errors)).toEqual([
      { field: 'body.status', rule: 'enum', message: 'must be one of new, open (received "x")' },
    ]);
  });

  it('a finding on a body that is not JSON names the field once (issue 27: "body: json — body is not …")', () => {
    const bundles = loadBundles();
    const operation = bundles[0]?.operations.find((o) => o.operationId === 'getStore');
    if (!operation) throw new Error('getStore is missing');
    const [violation] = new Contract(bundles).validateResponse(operation, 200, 'application/json', '{oops');
    expect(violation).toMatchObject({ field: 'body', rule: 'json' });
    expect(violation?.message).toMatch(/^not valid JSON: /);
  });
});
