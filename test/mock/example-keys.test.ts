/**
 * The contract's examples are live records (issue #17): every key an example of any bundle names
 * (a record it shows, a relation of that record, a path parameter example, a key in an example
 * request body) resolves to a record of the running engine's seeded store, and the records the
 * examples show are stored as the examples show them (their own fields, at their own keys).
 */
import { describe, expect, it } from 'vitest';
import { deref } from '../../src/contract/index.ts';
import { exampleRequests, exampleValues, recordsIn } from '../../src/mock/model/example-records.ts';
import { collectionOf, MODEL, type Rec } from '../../src/mock/model/index.ts';
import { bundles, engineOf, send } from './engine.ts';

const engine = engineOf();
const store = engine.inspect();

/** Every (collection, key, where) an example names. */
function exampleKeys(): [string, string | number, string][] {
  const out: [string, string | number, string][] = [];
  for (const collection of MODEL.filter((c) => !c.singleton)) {
    const shown = (where: string, record: Rec) => {
      out.push([collection.name, record[collection.key], where]);
      for (const relation of collection.relations)
        for (const key of relation.keys(record)) out.push([relation.to, key, `${where} → ${relation.name}`]);
    };
    for (const operationId of collection.servedBy) {
      for (const value of exampleValues(bundles, operationId))
        for (const record of recordsIn(collection, value)) shown(operationId, record);
    }
    for (const { operationId, field } of collection.nestedIn ?? []) {
      for (const value of exampleValues(bundles, operationId))
        for (const record of value?.[field] ?? []) shown(`${operationId} ${field}`, record);
    }
  }
  for (const bundle of bundles) {
    for (const operation of bundle.operations) {
      const owner = MODEL.find((c) => c.addressedBy?.includes(operation.operationId));
      for (const parameter of operation.parameters.filter((p) => p?.in === 'path')) {
        const example = parameter.example ?? deref(bundle.document, parameter.schema)?.example;
        if (owner) out.push([owner.name, example, `${operation.operationId} path ${parameter.name}`]);
      }
    }
  }
  for (const body of exampleRequests(bundles, 'moveFulfillmentOrder'))
    out.push(['locations', body.new_location_id, 'move body']);
  return out;
}

describe('the contract’s examples are live records', () => {
  const keys = exampleKeys();

  it('names every collection the examples show', () => {
    // Every collection of the model with records in a contract schema (the store is an array, not
    // keyed), and every collection a relation points to (locations).
    const expected = MODEL.filter(
      (c) => (c.schema && !c.singleton) || MODEL.some((o) => o.relations.some((r) => r.to === c.name)),
    ).map((c) => c.name);
    expect(expected).toContain('locations');
    expect(new Set(keys.map(([c]) => c))).toEqual(new Set(expected));
    expect(keys.length).toBeGreaterThan(60);
  });

  it('resolves every key of every example of every bundle', () => {
    const missing = keys.filter(([collection, key]) => !store.get(collection, key)).map((k) => k.join(' '));
    expect(missing).toEqual([]);
  });

  it('stores each record an example shows with the example’s own fields', () => {
    const record = store.get('subscriptions', 48213) as Rec;
    expect(record.user?.email).toBe('anna.schmidt@example.com');
    for (const [collection, key, where] of keys) {
      if (where.includes('→') || where.includes('path') || where.includes('body')) continue;
      expect(store.get(collection, key)?.[collectionOf(collection).key], `${collection} ${key}`).toEqual(key);
    }
  });

  it('has the example request bodies’ line items on the fulfillment order the path example names', async () => {
    const fo = store.get('fulfillmentOrders', 1042) as Rec;
    const named = [
      ...exampleRequests(bundles, 'moveFulfillmentOrder'),
      ...exampleRequests(bundles, 'sendFulfillmentRequest'),
    ].flatMap((body) => (body.fulfillment_order_line_items ?? []).map((item: Rec) => item.id));
    expect(fo.line_items.map((l: Rec) => l.id)).toEqual(expect.arrayContaining(named));
    expect((await send(engine, 'GET', '/fulfillment-orders/?fulfillment_order_id=1042')).json.results).toHaveLength(1);
  });
});
