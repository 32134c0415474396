/**
 * A collection's records are checked against their schema component (issue 29): the component of
 * the newest bundle defining it, whatever order the bundles come in, shown by `describeModel()`;
 * a `--data` record is named by its own field, a list's record as much as a read's.
 */
import { describe, expect, it } from 'vitest';
import { bundleDefining, COMPONENTS, componentVersion, VERSIONS } from '../../src/contract/index.ts';
import { describeModel, FixtureError } from '../../src/mock/index.ts';
import { recordProblem } from '../../src/mock/model/fixtures.ts';
import { recordCheckOf } from '../../src/mock/model/schemas.ts';
import { bundles, engineOf, send } from './engine.ts';

const seeded = engineOf().inspect();
const transaction = seeded.list('transactions')[0];

describe('describeModel() schema', () => {
  it('names the component and the version of the newest bundle defining it, whatever the bundles’ order', () => {
    const views = describeModel().filter((view) => view.schema);
    expect(views.length).toBeGreaterThan(10);
    for (const { schema } of views) {
      if (!schema) continue;
      expect(schema.version).toBe(componentVersion(schema.component));
      expect(bundleDefining([...bundles].reverse(), schema.component)?.version).toBe(schema.version);
      expect(COMPONENTS[schema.component]?.[0]).toBe(schema.version);
    }
    // Transaction is defined by the two dated versions: the newest is taken.
    expect(describeModel().find((view) => view.name === 'transactions')?.schema).toEqual({
      component: 'Transaction',
      version: VERSIONS[0],
    });
    expect(describeModel().find((view) => view.name === 'locations')?.schema).toBeNull();
  });

  it('is a copy', () => {
    const view = describeModel()[1];
    if (view?.schema) view.schema.component = 'Changed';
    expect(describeModel()[1]?.schema?.component).not.toBe('Changed');
  });
});

describe('a record checked against its component', () => {
  it('checks against the newest bundle defining it, not the first passed in', () => {
    // An older bundle whose Transaction demands a field: passed first, it must not be the one used.
    const [newest, older] = [bundles[0], bundles[1]];
    if (!newest || !older) throw new Error('two bundles expected');
    const doctored = structuredClone(older);
    doctored.document.components.schemas.Transaction.required.push('only_in_doctored');
    const check = recordCheckOf([doctored, newest], 'Record');
    expect(check('Transaction', transaction)).toEqual([]);
    expect(recordCheckOf([doctored], 'Record')('Transaction', transaction)?.[0]?.message).toBe(
      'Record field only_in_doctored: is required',
    );
    expect(check('NoSuchComponent', transaction)).toBeUndefined();
  });

  it('names the field inside a list’s record, as a read’s (it named results.0.amount)', () => {
    const broken = { ...transaction, amount: 12 };
    expect(() => engineOf({ data: { transactions: [broken as never] }, dataSource: 't.json' })).toThrow(
      new FixtureError(
        `t.json: transactions[0] (id ${transaction?.id}): field amount breaks the contract (type): Fixture record field amount: must be string (received 12)`,
      ),
    );
  });

  it('serves a fixture list record checked against its component', async () => {
    const engine = engineOf({ data: { transactions: [{ ...transaction, amount: '1.00' } as never] } });
    const page = await send(engine, 'GET', `/subscriptions/${transaction?.subscription?.id}/transactions/`);
    expect(page.status).toBe(200);
    expect(page.json.results.map((r: { amount: string }) => r.amount)).toEqual(['1.00']);
  });

  it('does not ask a key of the singleton store, but checks its fields', () => {
    const check = recordCheckOf(bundles, 'Record');
    const { id: _, ...store }: Record<string, unknown> = seeded.list('store')[0] ?? {};
    expect(recordProblem('store', store, check)).toBeUndefined();
    expect(recordProblem('store', { ...store, name: 42 }, check)).toMatch(
      /^store: field name breaks the contract \(type\): Record field name: must be string/,
    );
  });
});
