/**
 * The store's invariants (src/mock/invariants.ts) hold after every write: random sequences of
 * writes (fast-check), every write operation with valid and invalid input, over several tokens.
 * After each write: the records it stored (and, through them, the records they name, both ways)
 * keep every invariant and validate against the schema of every version showing them; a refused
 * write changed nothing (the token's state revision and records are as before). The whole store is
 * checked at the end of each sequence. Cost: the checks are per write's records, so 5,000 writes
 * take a few seconds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Bundle, deref } from '../../src/contract/index.ts';
import { checkRecords, checkStore } from '../../src/mock/invariants.ts';
import { collectionOf, MODEL, type Rec } from '../../src/mock/model/index.ts';
import { createProjector } from '../../src/mock/project.ts';
import { validatorsOf } from '../../src/validation/index.ts';
import { bundles, engineOf, send } from './engine.ts';

const engine = engineOf({ limits: { maxRecords: 100_000, maxStateBytes: 256 * 1024 * 1024 } });
const seed = engine.inspect();
const ids = (collection: string) => seed.list(collection).map((r) => r[collectionOf(collection).key]);

/** Every (bundle, operation) showing a collection's records whole: a page of them, or one as the body. */
const shows = MODEL.flatMap((collection) =>
  bundles.flatMap((bundle) =>
    bundle.operations
      .filter((o) => collection.servedBy.includes(o.operationId))
      .map((operation) => {
        const schema = deref(bundle.document, operation.operation.responses?.['200'])?.content?.['application/json']
          ?.schema;
        const resolved = deref(bundle.document, schema) ?? {};
        const shape =
          resolved.type === 'array'
            ? 'element'
            : resolved.properties?.results
              ? 'item'
              : resolved.properties?.[collection.key]
                ? 'body'
                : undefined;
        const check = validatorsOf(bundle).get(operation);
        const project = createProjector(bundle.document)(schema);
        return { collection: collection.name, bundle, shape, check, project };
      })
      .filter((s) => s.shape !== undefined),
  ),
);

/** Schema breaks of a record in every version showing it (its view, projected, then validated). */
function schemaBreaks(collection: string, record: Rec, view: (b: Bundle) => Rec): string[] {
  return shows
    .filter((s) => s.collection === collection)
    .flatMap((s) => {
      const shown = view(s.bundle);
      const body =
        s.shape === 'item' ? { next: null, previous: null, results: [shown] } : s.shape === 'element' ? [shown] : shown;
      return (s.check?.checkResponse(s.project(body)) ?? []).map(
        (v) => `${s.bundle.version} ${collection} ${record[collectionOf(collection).key]}: ${v.field} ${v.rule}`,
      );
    });
}

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const amount = fc.oneof(
  fc.constantFrom('0.00', '0.01', '-5', '1.00', '49.90', '99999.99'),
  fc.integer({ min: 1, max: 500 }).map((n) => `${n}.00`),
);
const lineItem = fc.record({ product_id: fc.integer({ min: 0, max: 8 }), quantity: fc.integer({ min: -1, max: 5 }) });

/** One write: every write operation, ids of the store or not, bodies valid or not. */
const write = fc.oneof(
  fc.record({ op: fc.constant('renew'), id: pick(ids('subscriptions')) }),
  fc.record({ op: fc.constant('retry'), id: pick(ids('subscriptions')) }),
  fc.record({
    op: fc.constant('move'),
    id: pick(ids('fulfillmentOrders')),
    location: pick([12, 14, 31, 40, 99]),
    some: fc.boolean(),
  }),
  fc.record({ op: fc.constant('request'), id: pick(ids('fulfillmentOrders')), some: fc.boolean() }),
  fc.record({ op: fc.constant('accept'), id: pick(ids('fulfillmentOrders')) }),
  fc.record({ op: fc.constant('lines'), id: pick(ids('orders')), lines: fc.array(lineItem, { maxLength: 3 }) }),
  fc.record({ op: fc.constant('capture'), id: pick(ids('transactions')), amount: fc.option(amount) }),
  fc.record({ op: fc.constant('giftCard'), initial: amount, currency: pick(['EUR', 'CHF', 'EURO']) }),
  fc.record({ op: fc.constant('ticket'), id: pick(ids('tickets')), status: pick(['open', 'solved', 'urgent']) }),
  fc.record({ op: fc.constant('page'), id: pick(ids('pages')), title: fc.string({ maxLength: 20 }) }),
  fc.record({ op: fc.constant('metadata'), id: pick(ids('metadata')), name: fc.string({ maxLength: 10 }) }),
);
type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

function request(w: Write, state: ReturnType<typeof engine.inspect>): [string, string, unknown] {
  switch (w.op) {
    case 'renew':
    case 'retry':
      return ['POST', `/subscriptions/${w.id}/${w.op}/`, {}];
    case 'move':
    case 'request': {
      const items = (state.get('fulfillmentOrders', w.id)?.line_items ?? [])
        .slice(0, 1)
        .map((l: Rec) => ({ id: l.id, quantity: 1 }));
      const selected = w.some ? { fulfillment_order_line_items: items } : {};
      if (w.op === 'move')
        return ['POST', `/fulfillment-orders/${w.id}/move/`, { new_location_id: w.location, ...selected }];
      return ['POST', `/fulfillment-orders/${w.id}/fulfillment-request/`, { message: 'Go', ...selected }];
    }
    case 'accept':
      return ['POST', `/fulfillment-orders/${w.id}/cancellation-request/accept/`, {}];
    case 'lines':
      return ['POST', `/orders/${w.id}/add-line-items/`, { lines: w.lines }];
    case 'capture':
      return ['POST', `/transactions/${w.id}/capture/`, w.amount === null ? {} : { amount: w.amount }];
    case 'giftCard':
      return ['POST', '/gift-cards/', { currency: w.currency, initial: w.initial }];
    case 'ticket':
      return ['PATCH', `/tickets/${w.id}/`, { status: w.status }];
    case 'page':
      return ['PUT', `/pages/${w.id}/`, { title: w.title }];
    case 'metadata':
      return ['PATCH', `/metadata/${w.id}/`, { name: w.name }];
  }
}

const VIEW = (record: Rec, collection: string, state: ReturnType<typeof engine.inspect>) => (bundle: Bundle) => {
  const view = collectionOf(collection).view;
  return view
    ? view(record, {
        list: (name) => [...state.list(name)],
        get: (name, key) => state.get(name, key),
        // A scan, not the state's index: the invariants check the views by the slow way.
        first: (name, by, value) => state.list(name).find((r) => by(r) === value),
        bundle,
      })
    : record;
};

describe('the seeded orders (issue 27)', () => {
  it('say paid only when nothing is outstanding, pending while money is owed', () => {
    const orders = seed.list('orders');
    const owing = orders.filter((o) => Number(o.total_outstanding) > 0);
    expect(owing.length).toBeGreaterThan(0);
    expect(new Set(owing.map((o) => o.payment_status))).toEqual(new Set(['pending']));
    const settled = orders.filter((o) => Number(o.total_outstanding) === 0);
    expect(new Set(settled.map((o) => o.payment_status))).toEqual(new Set(['paid']));
    expect(checkStore(seed).filter((m) => m.includes('payment_status'))).toEqual([]);
  });
});

describe('invariants under random writes', () => {
  it('hold after each of 5,000 writes over 4 tokens, every record valid in every version, refusals changing nothing', async () => {
    expect(checkStore(seed)).toEqual([]);
    let writes = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(pick(['a', 'b', 'c', 'd']), write), { minLength: 500, maxLength: 500 }),
        async (steps) => {
          const run = `run-${writes}`;
          for (const [who, w] of steps) {
            const token = `${run}-${who}`;
            const before = engine.inspect(token);
            const revision = before.revision;
            const [method, path, body] = request(w, before);
            const answer = await send(engine, method, path, { token, body });
            writes += 1;
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            expect(
              answer.status,
              `${method} ${path} ${JSON.stringify(body)}: ${answer.text.slice(0, 300)}`,
            ).toBeLessThan(500);
            const after = engine.inspect(token);
            if (answer.status !== 200) {
              expect(after.revision).toBe(revision);
              continue;
            }
            expect(after.revision).toBe(revision + 1);
            const changed = after.lastChanges.map(([c, r]) => [c, r] as [string, Rec]);
            expect(checkRecords(after, changed)).toEqual([]);
            for (const [collection, record] of changed)
              expect(schemaBreaks(collection, record, VIEW(record, collection, after))).toEqual([]);
          }
          for (const who of ['a', 'b', 'c', 'd']) expect(checkStore(engine.inspect(`${run}-${who}`))).toEqual([]);
        },
      ),
      { numRuns: 10, seed: 17 },
    );
    expect(writes).toBeGreaterThanOrEqual(5000);
    expect(statuses.get(200)).toBeGreaterThan(1000);
    expect(statuses.get(422)).toBeGreaterThan(500);
  }, 120_000);
});
