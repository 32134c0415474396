/**
 * The model derives what was once written beside it (issue 29): the operations serving and
 * addressing a collection's records come from the operations the collection files declare, and a
 * declaration that contradicts another is refused when the model loads.
 */
import { describe, expect, it } from 'vitest';
import { loadBundles } from '../../src/contract/index.ts';
import { MODEL, withOperations } from '../../src/mock/model/index.ts';
import { recordSchemaProblem } from '../../src/mock/model/schemas.ts';
import { OPERATION_DECLS } from '../../src/mock/resources.ts';

const declared = MODEL.map(({ servedBy: _, addressedBy: __, singleton: ___, ...collection }) => collection);
const bundles = loadBundles();
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

  it('refuses a schema link to a component no bundle of the contract defines, when the model loads', () => {
    const wrong = declared.map((c) => (c.name === 'pages' ? { ...c, schema: { component: 'Pagee' } } : c));
    expect(() => withOperations(wrong)).toThrow(
      'the schema of pages is Pagee, which no bundle of the contract defines',
    );
    expect(withOperations(declared)).toEqual(MODEL);
  });

  it('refuses a component that is not the record of an answer serving the collection', () => {
    const pages = named('pages');
    if (!pages) throw new Error('no pages');
    // Ticket is defined (so the model loads), but updatePage answers with a Page.
    expect(recordSchemaProblem({ ...pages, schema: { component: 'Ticket' } }, bundles)).toBe(
      'the schema of pages is Ticket, which is not the record of an answer of updatePage serving it',
    );
    // A results item (transactions) and an array element (the store) are records too.
    for (const collection of MODEL) expect(recordSchemaProblem(collection, bundles)).toBeUndefined();
  });

  it('accepts every collection whatever part of the bundles is served (a partial set cannot tell)', () => {
    const subsets = Array.from({ length: 2 ** bundles.length - 1 }, (_, mask) =>
      bundles.filter((__, i) => ((mask + 1) >> i) & 1),
    );
    for (const subset of [...subsets, [...bundles].reverse()]) {
      for (const collection of MODEL) expect(recordSchemaProblem(collection, subset)).toBeUndefined();
    }
  });

  it('knows the singleton (a read without a path parameter answers with the whole collection)', () => {
    expect(MODEL.filter((c) => c.singleton).map((c) => c.name)).toEqual(['store']);
  });
});
