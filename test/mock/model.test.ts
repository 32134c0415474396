/**
 * The model derives what was once written beside it (issue 29): the operations serving and
 * addressing a collection's records come from the operations the collection files declare, and a
 * declaration that contradicts another is refused when the model loads.
 */
import { describe, expect, it } from 'vitest';
import { MODEL, withOperations } from '../../src/mock/model/index.ts';
import { OPERATION_DECLS } from '../../src/mock/resources.ts';

const declared = MODEL.map(({ servedBy: _, addressedBy: __, ...collection }) => collection);
const named = (name: string) => MODEL.find((c) => c.name === name);

describe('the declared model', () => {
  it('derives servedBy and addressedBy from the operations (a read serving another collection, a parent list)', () => {
    expect(named('subscriptions')?.servedBy).toEqual(['listSubscriptions', 'renewSubscription', 'retrySubscription']);
    expect(named('subscriptions')?.addressedBy).toEqual([
      'renewSubscription',
      'retrySubscription',
      'listSubscriptionTransactions',
    ]);
    expect(named('fulfillments')?.servedBy).toEqual(['getOrderFulfillments']);
    expect(named('orders')?.addressedBy).toEqual(['addOrderLineItems', 'getOrderFulfillments']);
    expect(named('giftCards')?.addressedBy).toEqual([]);
  });

  it('has one operation table entry per declared operation, with the collection that declares it', () => {
    const count = MODEL.reduce((sum, c) => sum + Object.keys(c.operations).length, 0);
    expect(Object.keys(OPERATION_DECLS)).toHaveLength(count);
    expect(OPERATION_DECLS.getOrderFulfillments?.collection).toBe('orders');
    expect(OPERATION_DECLS.captureTransaction?.collection).toBe('transactions');
  });

  it('refuses an operation declared by two collections', () => {
    const twice = declared.map((c) =>
      c.name === 'pages' ? { ...c, operations: { ...c.operations, getTicket: { kind: 'get' as const } } } : c,
    );
    expect(() => withOperations(twice)).toThrow('getTicket is declared by both tickets and pages');
  });

  it('refuses a schema link to an operation that does not serve the collection', () => {
    const wrong = declared.map((c) =>
      c.name === 'pages' ? { ...c, schema: { operationId: 'getTicket', shape: 'body' as const } } : c,
    );
    expect(() => withOperations(wrong)).toThrow('the schema of pages is the response of getTicket');
    expect(withOperations(declared)).toEqual(MODEL);
  });
});
