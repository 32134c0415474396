/**
 * The contract's schema toolkit (src/contract), which the mock, the proxy, `--static`, MSW and the
 * validators share instead of each looking things up its own way: the JSON media of an operation's
 * response or request body, a path template's parameter names, and the subschemas combinators add.
 */
import { describe, expect, it } from 'vitest';
import {
  combinedSchemasOf,
  jsonMediaOf,
  loadBundles,
  pathParameterNames,
  responseMediaOf,
} from '../../src/contract/index.ts';

const bundles = loadBundles();

describe('the schema toolkit', () => {
  it('finds the 200 JSON media of every operation that has one, $refs followed, and none for a status it lacks', () => {
    for (const bundle of bundles) {
      for (const operation of bundle.operations) {
        const media = responseMediaOf(bundle.document, operation);
        if (operation.operation.responses?.['200'] === undefined) expect(media).toBeUndefined();
        else expect(media?.schema, `${operation.operationId} (${bundle.version})`).toBeDefined();
        expect(responseMediaOf(bundle.document, operation, '299')).toBeUndefined();
      }
    }
    expect(responseMediaOf(bundles[0]?.document, undefined)).toBeUndefined();
  });

  it('finds the JSON media of a request body', () => {
    const bundle = bundles.find((b) => b.operations.some((o) => o.operationId === 'createGiftCard'));
    const operation = bundle?.operations.find((o) => o.operationId === 'createGiftCard');
    expect(jsonMediaOf(bundle?.document, operation?.operation.requestBody)?.schema).toBeDefined();
  });

  it('names the parameters of a path template in order', () => {
    expect(pathParameterNames('/orders/{id}/lines/{line_id}/')).toEqual(['id', 'line_id']);
    expect(pathParameterNames('/store/')).toEqual([]);
  });

  it('gives the subschemas of allOf, then anyOf, then oneOf, and none for a plain schema', () => {
    const [a, b, c, d] = [{ type: 'string' }, { type: 'integer' }, { type: 'null' }, { minimum: 1 }];
    expect(combinedSchemasOf({ oneOf: [c], allOf: [a], anyOf: [b, d] })).toEqual([a, b, d, c]);
    expect(combinedSchemasOf({ type: 'object' })).toEqual([]);
    expect(combinedSchemasOf(undefined)).toEqual([]);
  });
});
