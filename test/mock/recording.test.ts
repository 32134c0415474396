// Recordings always serve (issue 26 item 4): the shared staging recording (`proxy --record` of a
// staging store whose order numbers are words, "anim") loads into the mock and the MSW handlers
// with no record skipped, and every record a recorded read answered is served by the mock, read
// by its key in the version recorded, with the same shape (fields and JSON types, drift's
// `shapeOf`/`diffShapes`). On main before: `--data` refused the whole file at orders[0].
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundles, VERSION_HEADER } from '../../src/contract/index.ts';
import { diffShapes, shapeOf } from '../../src/drift/index.ts';
import {
  createMockEngine,
  describeModel,
  type MockFixtures,
  type MockServer,
  startMock,
} from '../../src/mock/index.ts';
import { createHandlers } from '../../src/msw/index.ts';
import type { Recording } from '../../src/proxy/index.ts';
import { recordModel, valuesAt } from '../../src/proxy/records.ts';
import { SHARED_RECORDING, withoutSharedRecording } from '../helpers/shared-recording.ts';

const FILE = SHARED_RECORDING;
// Without it (a clone with no shared/ beside it) every suite below is skipped, saying why.
const recording = (
  withoutSharedRecording ? { $recording: { exchanges: [] } } : JSON.parse(readFileSync(FILE, 'utf8'))
) as Recording;
type Rec = Record<string, unknown>;
/** The recording's collections, by name. */
const recorded = recording as unknown as Record<string, Rec[]>;

/** How the mock reads one record of a collection: the request, and where the record is in the answer. */
const READS: Record<string, (r: Rec) => { target: string; pick: (body: unknown) => unknown }> = {
  tickets: (r) => ({ target: `/tickets/${r.id}/`, pick: (body) => body }),
  stockrecords: (r) => ({ target: `/stockrecords/${r.id}/`, pick: (body) => body }),
  fulfillments: (r) => ({
    target: `/orders/${encodeURIComponent(String(r.order_number))}/fulfillments/`,
    pick: (body) => body,
  }),
  store: () => ({ target: '/store/', pick: (body) => (body as Rec[])[0] }),
  subscriptions: (r) => ({ target: '/subscriptions/', pick: (body) => byId(body, r.id) }),
  transactions: (r) => ({
    target: `/subscriptions/${(r.subscription as Rec).id}/transactions/`,
    pick: (body) => byId(body, r.id),
  }),
  fulfillmentOrders: (r) => ({
    target: `/fulfillment-orders/?fulfillment_order_id=${r.id}`,
    pick: (body) => byId(body, r.id),
  }),
};
const byId = (page: unknown, id: unknown) => (page as { results: Rec[] }).results.find((x) => x.id === id);

const KEYS = new Map(describeModel().map((c) => [c.name, c.key]));

/** Every record a recorded read (GET) answered that the recording's collections hold, with its version. */
function recordedReads(): { collection: string; version: string; record: Rec }[] {
  const model = recordModel(loadBundles());
  const out = new Map<string, { collection: string; version: string; record: Rec }>();
  for (const exchange of recording.$recording.exchanges) {
    if (exchange.method !== 'GET') continue;
    for (const site of model.sitesOf(exchange.version, exchange.operation)) {
      const key = KEYS.get(site.collection) ?? 'id';
      for (const record of valuesAt(exchange.body, site.path)) {
        const held = recorded[site.collection]?.find((r) => r[key] === record[key]);
        // The collection keeps the latest record of a key: an earlier answer may show another state.
        if (held && JSON.stringify(held) === JSON.stringify(record)) {
          out.set(`${exchange.version} ${site.collection} ${String(record[key])}`, {
            collection: site.collection,
            version: exchange.version,
            record,
          });
        }
      }
    }
  }
  return [...out.values()];
}

let mock: MockServer;
const warnings: string[] = [];

beforeAll(async () => {
  if (withoutSharedRecording) return;
  mock = await startMock({ port: 0, dataFile: FILE, pageSize: 1000, warn: (line) => warnings.push(line) });
});
afterAll(() => mock?.close());

describe.skipIf(withoutSharedRecording)('the shared staging recording', () => {
  it('loads with every record kept, order numbers as recorded (words, not digits)', () => {
    expect(warnings).toEqual([]);
    const state = mock.engine?.inspect();
    for (const [name, records] of Object.entries(recorded)) {
      if (name.startsWith('$')) continue;
      expect(state?.list(name).length, name).toBe(records.length);
    }
    expect(state?.get('orders', 'anim')?.number).toBe('anim');
  });

  it('every record a recorded read answered is served by its key, in the version recorded, with the same shape', async () => {
    const reads = recordedReads();
    expect(new Set(reads.map((r) => r.collection))).toEqual(new Set(Object.keys(READS)));
    const findings: string[] = [];
    for (const { collection, version, record } of reads) {
      const read = (READS[collection] as (typeof READS)[string])(record);
      const response = await fetch(`${mock.url}${read.target}`, {
        headers: { Authorization: 'Bearer t', [VERSION_HEADER]: version },
      });
      const where = `${version} ${read.target}`;
      if (response.status !== 200) {
        findings.push(`${where}: ${response.status}`);
        continue;
      }
      const served = read.pick(await response.json());
      if (served === undefined) findings.push(`${where}: record ${String(record.id)} not in the answer`);
      else
        diffShapes(shapeOf(record), shapeOf(served), (kind, field, detail) =>
          findings.push(`${where}: ${kind} ${field} ${detail}`),
        );
    }
    expect(findings).toEqual([]);
    expect(reads.length).toBeGreaterThan(250);
  });

  it('the MSW handlers load it too and serve a recorded order by its number', async () => {
    const handlers = createHandlers({
      baseUrl: 'http://api.test',
      data: recording,
      warn: (line) => warnings.push(line),
    });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const order = recording.fulfillments?.[0] as Rec;
      const response = await fetch(
        `http://api.test/orders/${encodeURIComponent(String(order.order_number))}/fulfillments/`,
        {
          headers: { Authorization: 'Bearer t' },
        },
      );
      expect(response.status).toBe(200);
      expect((await response.json()).id).toBe(order.id);
    } finally {
      server.close();
    }
    expect(warnings).toEqual([]);
  });
});

describe.skipIf(withoutSharedRecording)('a recording with records the mock cannot serve', () => {
  it('skips each with a warning naming it and the rule, and serves the rest', async () => {
    const [good, second] = recording.tickets as Rec[];
    const data = {
      ...recording,
      tickets: [good, { ...second, priority: 'urgent' }, { ...second, id: 'seven' }, good],
      orders: [{ ...(recording.orders?.[0] as Rec), number: '' }, recording.orders?.[1]],
      refunds: [],
    };
    const seen: string[] = [];
    const engine = createMockEngine({
      data: data as unknown as MockFixtures,
      dataSource: 'rec.json',
      warn: (line) => seen.push(line),
    });
    expect(seen).toEqual([
      expect.stringMatching(/^rec\.json: orders\[0\] \(number ""\): field number must be .*\(rule key\); skipped$/),
      expect.stringMatching(
        /^rec\.json: tickets\[1\] \(id \d+\): field priority breaks the contract \(enum\).*; skipped$/,
      ),
      expect.stringMatching(
        /^rec\.json: tickets\[2\] \(id "seven"\): field id breaks the contract \(type\).*; skipped$/,
      ),
      expect.stringMatching(/^rec\.json: tickets\[3\] \(id \d+\): duplicate id \d+ \(rule unique\); skipped$/),
      expect.stringMatching(/^rec\.json: unknown resource "refunds" .*; skipped$/),
    ]);
    expect(
      engine
        .inspect()
        .list('tickets')
        .map((t) => t.id),
    ).toEqual([good?.id]);
    expect(
      engine
        .inspect()
        .list('orders')
        .map((o) => o.number),
    ).toEqual([recording.orders?.[1]?.number]);
  });
});

it.skipIf(withoutSharedRecording)(
  'writes address a recorded order by its number, and a new order still gets the next numeric number',
  async () => {
    const engine = createMockEngine({ data: recording, warn: (line) => warnings.push(line) });
    const call = (method: string, path: string, body?: unknown) =>
      engine.handle(
        new Request(`http://mock.test${path}`, {
          method,
          headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        }),
      );
    const number = 'elit fugiat velit ex';
    const added = await call('POST', `/orders/${encodeURIComponent(number)}/add-line-items/`, {
      lines: [{ product_id: 1, quantity: 2 }],
    });
    expect(added.status).toBe(200);
    expect((await added.json()).number).toBe(number);
    const active = (recording.subscriptions as Rec[]).find((s) => s.status === 'active') as Rec;
    const renewed = await call('POST', `/subscriptions/${active.id}/renew/`);
    expect(renewed.status).toBe(200);
    const orders = engine
      .inspect('t')
      .list('orders')
      .map((o) => o.number);
    // Numeric numbers first (in key order), the recorded words after them.
    expect(orders).toEqual(['1', ...(recording.orders as Rec[]).map((o) => o.number)]);
  },
);
