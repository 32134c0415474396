/**
 * Answers from cached bytes (issue 28 item 1, src/mock/view-cache.ts): for random sequences of
 * writes, resets, snapshots and restores (fast-check, the in-process engine), every read answers
 * byte for byte what viewing, projecting and serializing the whole body from the token's state
 * answers, in every version serving it, and a filtered list walked by its cursors holds exactly the
 * records a scan of the state selects. Below the engine, the same for records whose view reads
 * other records (a version whose subscription lines nest their product's stock record), with the stock
 * records changed under it, in two states sharing the subscriptions: no API write changes a stock
 * record, so the state is written directly there.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Bundle, deref, VERSION_HEADER } from '../../src/contract/index.ts';
import { State } from '../../src/mock/collection-state.ts';
import { collectionOf, type Rec, type ViewContext } from '../../src/mock/model/index.ts';
import { MEMO_ENTRY_BYTES } from '../../src/mock/page-memo.ts';
import { createProjector, type Projector } from '../../src/mock/project.ts';
import { keptText, ViewReads } from '../../src/mock/view-cache.ts';
import { bundles, engineOf, send } from './engine.ts';

const engine = engineOf();
const seed = engine.inspect();
type Reader = ReturnType<typeof engine.inspect>;

/** The view context of the slow way: reads by scanning the state, nothing kept. */
const scanning = (state: Reader, bundle: Bundle): ViewContext => ({
  list: (name) => [...state.list(name)],
  get: (name, key) => state.get(name, key),
  first: (name, by, value) => state.list(name).find((r) => by(r) === value),
  bundle,
});

/** The whole 200 body's projector of an operation in a bundle (one per pair: texts are kept per projector). */
const projectors = new Map<string, Projector>();
function bodyProjector(bundle: Bundle, operationId: string): Projector {
  const known = projectors.get(`${bundle.version} ${operationId}`);
  if (known) return known;
  const operation = bundle.operations.find((o) => o.operationId === operationId);
  const schema = deref(bundle.document, operation?.operation.responses?.['200'])?.content?.['application/json']?.schema;
  const made = createProjector(bundle.document)(schema);
  projectors.set(`${bundle.version} ${operationId}`, made);
  return made;
}

const decoder = new TextDecoder();

/**
 * `actual` is bytes, the UTF-8 of `text`. Compared by Buffer.equals: vitest's deep equality walks a
 * byte array element by element (19 of this file's 24 s of CPU); a difference is reported as text.
 */
function expectBytesOf(actual: string | Uint8Array | undefined, text: string): void {
  expect(actual).toBeInstanceOf(Uint8Array);
  const bytes = actual as Uint8Array;
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(Buffer.from(text))) return;
  expect(decoder.decode(bytes)).toBe(text);
  expect.unreachable('bytes that decode to the text but are not its UTF-8');
}

/**
 * A read's body as the engine hands it to an adapter (handleRaw, no Response between): the bytes
 * the node:http server writes.
 */
async function rawBody(token: string, version: string, target: string): Promise<string | Uint8Array> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, [VERSION_HEADER.toLowerCase()]: version };
  const answer = await engine.handleRaw({
    method: 'GET',
    target,
    origin: 'http://mock.test',
    header: (name) => headers[name],
    readBody: () => new Uint8Array(),
  });
  return answer.body;
}

/** The versions serving an operation. */
const serving = (operationId: string) => bundles.filter((b) => b.operations.some((o) => o.operationId === operationId));

/** A record as the version shows it, the slow way. */
const viewed = (collection: string, record: Rec, state: Reader, bundle: Bundle) =>
  collectionOf(collection).view?.(record, scanning(state, bundle)) ?? record;

const STATUSES = ['active', 'past_due', 'retrying', 'paused', 'canceled'];

/** Every page of a filtered subscription list, walked by its `next` links: the answers, the slow way's bytes. */
async function checkList(token: string, bundle: Bundle, status: string | undefined): Promise<void> {
  const state = engine.inspect(token);
  const project = bodyProjector(bundle, 'listSubscriptions');
  const keys: number[] = [];
  let path: string | null = `/subscriptions/${status ? `?status=${status}` : ''}`;
  while (path) {
    const answer = await send(engine, 'GET', path, { token, version: bundle.version });
    expect(answer.status).toBe(200);
    const results = (answer.json.results as Rec[]).map((r) => state.get('subscriptions', r.id) as Rec);
    const slow = { next: answer.json.next, previous: answer.json.previous, results };
    const shown = { ...slow, results: results.map((r) => viewed('subscriptions', r, state, bundle)) };
    expect(answer.text).toBe(JSON.stringify(project(shown)));
    expectBytesOf(await rawBody(token, bundle.version, path), answer.text);
    keys.push(...results.map((r) => r.id));
    path = answer.json.next === null ? null : new URL(answer.json.next).pathname + new URL(answer.json.next).search;
  }
  const scan = state.list('subscriptions').filter((r) => status === undefined || r.status === status);
  expect(keys).toEqual(scan.map((r) => r.id));
}

/** A read by key: its answer, the slow way's bytes. */
async function checkGet(token: string, operationId: string, collection: string, path: string, key: string | number) {
  const state = engine.inspect(token);
  for (const bundle of serving(operationId)) {
    const answer = await send(engine, 'GET', path, { token, version: bundle.version });
    const record =
      collection === 'fulfillments'
        ? state.list('fulfillments').find((f) => f.order_number === String(key))
        : state.get(collection, key);
    expect(answer.status).toBe(record ? 200 : 404);
    if (!record) continue;
    const slow = JSON.stringify(bodyProjector(bundle, operationId)(viewed(collection, record, state, bundle)));
    expect(answer.text).toBe(slow);
    expectBytesOf(await rawBody(token, bundle.version, path), slow);
  }
}

const ids = (collection: string) => seed.list(collection).map((r) => r[collectionOf(collection).key]);
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const step = fc.oneof(
  fc.record({ op: fc.constant('renew' as const), id: pick(ids('subscriptions').slice(0, 12)) }),
  fc.record({ op: fc.constant('retry' as const), id: pick(ids('subscriptions').slice(0, 12)) }),
  fc.record({ op: fc.constant('lines' as const), id: pick(ids('orders').slice(0, 6)) }),
  fc.record({
    op: fc.constant('ticket' as const),
    id: pick(ids('tickets').slice(0, 4)),
    status: pick(['open', 'solved']),
  }),
  fc.record({ op: fc.constant('reset' as const) }),
  fc.record({ op: fc.constant('snapshot' as const) }),
  fc.record({ op: fc.constant('restore' as const) }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

async function run(token: string, s: Step): Promise<void> {
  if (s.op === 'reset') return engine.reset(token);
  if (s.op === 'snapshot') return void (await engine.snapshot('a', token));
  if (s.op === 'restore') return void (await engine.restore('a', token));
  if (s.op === 'ticket')
    return void (await send(engine, 'PATCH', `/tickets/${s.id}/`, { token, body: { status: s.status } }));
  if (s.op === 'lines') {
    const lines = [{ product_id: 1, quantity: 1 }];
    return void (await send(engine, 'POST', `/orders/${s.id}/add-line-items/`, { token, body: { lines } }));
  }
  // (These two take no body: a `{}` would be refused with 415.)
  await send(engine, 'POST', `/subscriptions/${s.id}/${s.op}/`, { token });
}

describe('answers from cached bytes', () => {
  let runs = 0;
  it('equal the uncached answer byte for byte after random writes, resets, snapshots and restores (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), pick(STATUSES), async (steps, status) => {
        const token = `cache-${runs++}`;
        for (const s of steps) {
          await run(token, s);
          // Read after every step, each page twice (the second from the state's memo of answers,
          // src/mock/page-memo.ts): texts and answers kept before a change must not be answered after it.
          for (const bundle of serving('listSubscriptions')) {
            await checkList(token, bundle, status);
            await checkList(token, bundle, undefined);
          }
        }
        for (const id of ids('tickets').slice(0, 4))
          await checkGet(token, 'getTicket', 'tickets', `/tickets/${id}/`, id);
        await checkGet(token, 'getStockRecord', 'stockrecords', '/stockrecords/7/', 7);
        const order = ids('orders')[0] as string;
        await checkGet(token, 'getOrderFulfillments', 'fulfillments', `/orders/${order}/fulfillments/`, order);
      }),
      { numRuns: 15, seed: 28 },
    );
    // Every page of every version after each step, the slow way beside it: ~0.5 s idle (12-40 s when
    // the bytes were compared by toEqual).
  });

  it('answers a page read again unchanged with the same bytes (no copy), and a changed one anew', async () => {
    const version = serving('listSubscriptions')[0]?.version as string;
    const first = await rawBody('page-again', version, '/subscriptions/?status=active');
    expect(await rawBody('page-again', version, '/subscriptions/?status=active')).toBe(first);
    const id = engine
      .inspect('page-again')
      .list('subscriptions')
      .find((s) => s.status === 'active')?.id;
    expect((await send(engine, 'POST', `/subscriptions/${id}/renew/`, { token: 'page-again' })).status).toBe(200);
    const after = await rawBody('page-again', version, '/subscriptions/?status=active');
    expect(decoder.decode(after as Uint8Array)).not.toBe(decoder.decode(first as Uint8Array));
    const answer = await send(engine, 'GET', '/subscriptions/?status=active', { token: 'page-again', version });
    expectBytesOf(after, answer.text);
    // Another state's page in between: answered from that state, then this one's again.
    const other = await rawBody('page-other', version, '/subscriptions/?status=active');
    expectBytesOf(other, decoder.decode(first as Uint8Array));
    expectBytesOf(await rawBody('page-again', version, '/subscriptions/?status=active'), answer.text);
  });

  it('counts the texts a read keeps for a token’s own records in its state’s memory estimate, not the seeded ones', async () => {
    // Every state's estimate together (GET /__mock/states names states by a hash): only this test reads meanwhile.
    const estimate = async () => {
      const states = await engine.handle(new Request('http://mock.test/__mock/states'));
      return ((await states.json()) as { usage: { bytes: number } }).usage.bytes;
    };
    const id = seed.list('subscriptions').find((s) => s.status === 'active')?.id as number;
    expect((await send(engine, 'POST', `/subscriptions/${id}/renew/`, { token: 'charged' })).status).toBe(200);
    const before = await estimate();
    const version = serving('listSubscriptions')[0]?.version as string;
    await send(engine, 'GET', '/subscriptions/', { token: 'charged', version });
    const after = await estimate();
    // The renewed subscription (the state's own) is on the first page; the other nine are seeded.
    const own = await send(engine, 'GET', '/subscriptions/', { token: 'charged', version });
    const text = JSON.stringify((own.json.results as Rec[]).find((r) => r.id === id));
    // Its text, and the page's answer the state's memo keeps (./memo below): its bytes and entry.
    const memo = Buffer.byteLength(own.text) + MEMO_ENTRY_BYTES;
    expect((after ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(text.length + memo);
    expect((after ?? 0) - (before ?? 0)).toBeLessThan(2 * text.length + memo + 200);
    await send(engine, 'GET', '/subscriptions/', { token: 'charged', version });
    expect(await estimate()).toBe(after);
  });
});

describe('the memo of list answers (src/mock/page-memo.ts, src/mock/stages/memo.ts)', () => {
  const version = serving('listSubscriptions')[0]?.version as string;
  const memo = engineOf();
  const read = (token: string, path: string, options: { origin?: string; version?: string } = {}) =>
    send(memo, 'GET', path, { token, version, ...options });
  const activeId = (token: string) =>
    memo
      .inspect(token)
      .list('subscriptions')
      .find((s) => s.status === 'active')?.id;

  it('answers anew after each write to the same state, not what it kept before', async () => {
    const id = activeId('memo-writes');
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await send(memo, 'POST', `/subscriptions/${id}/renew/`, { token: 'memo-writes' })).status).toBe(200);
      const first = await read('memo-writes', '/subscriptions/?status=active');
      expect((await read('memo-writes', '/subscriptions/?status=active')).text).toBe(first.text);
      seen.push(first.text);
    }
    expect(new Set(seen).size).toBe(3);
  });

  it('answers a token’s fork of a global snapshot from the fork, not from the state it had', async () => {
    const id = activeId('memo-global');
    expect((await send(memo, 'POST', `/subscriptions/${id}/renew/`, { token: 'memo-global' })).status).toBe(200);
    await memo.snapshot('memo-renewed', 'memo-global', { global: true });
    const global = await read('memo-global', '/subscriptions/?status=active');
    const before = await read('memo-forked', '/subscriptions/?status=active');
    expect(before.text).not.toBe(global.text);
    await memo.fork('memo-renewed', 'memo-forked');
    expect((await read('memo-forked', '/subscriptions/?status=active')).text).toBe(global.text);
  });

  it('keys the answer by version, link origin and the query as sent', async () => {
    const path = '/subscriptions/?status=active,paused&colour=red';
    const a = await read('memo-keys', path);
    const b = await read('memo-keys', path, { origin: 'http://other.test' });
    expect(a.json.next).toMatch(/^http:\/\/mock\.test\/subscriptions\/\?status=active%2Cpaused&colour=red&cursor=/);
    expect(b.json.next).toMatch(/^http:\/\/other\.test\//);
    // The unknown parameter is named on the answer from the memo too.
    expect((await read('memo-keys', path)).headers.get('X-Mock-Unknown-Query')).toBe('colour');
    const reordered = await read('memo-keys', '/subscriptions/?colour=red&status=active,paused');
    expect(reordered.json.next).toMatch(/\?colour=red&status=active%2Cpaused&cursor=/);
    for (const bundle of serving('listSubscriptions')) {
      const answer = await read('memo-keys', path, { version: bundle.version });
      expect(answer.headers.get(VERSION_HEADER)).toBe(bundle.version);
      expect((await read('memo-keys', path, { version: bundle.version })).text).toBe(answer.text);
    }
  });

  it('counts a read answered from the memo in coverage and the request log as the first', async () => {
    const first = await read('memo-walk', '/subscriptions/?status=active,paused');
    const path = `${new URL(first.json.next).pathname}${new URL(first.json.next).search}`;
    await read('memo-once', path);
    for (let i = 0; i < 2; i++) await read('memo-twice', path);
    const items = (token: string) =>
      memo
        .coverage(token)
        .operations.filter((o) => o.operation === 'listSubscriptions' && o.version === version)
        .flatMap((o) =>
          o.items.filter((item) => item.count > 0).map((item) => `${item.dimension} ${item.name} ${item.count}`),
        );
    const twice = items('memo-once').map((item) => item.replace(/ (\d+)$/, (_, n) => ` ${2 * Number(n)}`));
    expect(twice.length).toBeGreaterThan(3);
    expect(items('memo-twice')).toEqual(twice);
    const [last, before] = memo.requests(2);
    expect({ ...last, id: 0, at: '', ms: 0 }).toEqual({ ...before, id: 0, at: '', ms: 0 });
  });

  it('counts what it keeps in the state’s memory estimate, and no more after many writes', async () => {
    const estimate = async () => {
      const states = await memo.handle(new Request('http://mock.test/__mock/states'));
      return ((await states.json()) as { usage: { bytes: number } }).usage.bytes;
    };
    // A write the page does not show (a ticket's status) makes the kept answer stale all the same.
    let status = 'open';
    const cycle = async () => {
      status = status === 'open' ? 'solved' : 'open';
      expect((await send(memo, 'PATCH', '/tickets/2/', { token: 'memo-budget', body: { status } })).status).toBe(200);
      return read('memo-budget', '/subscriptions/?status=active');
    };
    await cycle();
    const one = await estimate();
    const page = Buffer.byteLength((await read('memo-budget', '/subscriptions/?status=active')).text);
    expect(await estimate()).toBe(one);
    for (let i = 0; i < 20; i++) await cycle();
    // Replaced, not added to: the estimate holds one page's answer, as after the first.
    expect(Math.abs((await estimate()) - one)).toBeLessThan(page / 4);
  });
});

describe('a view reading other records (subscription lines nesting their stock record)', () => {
  const nesting = bundles.filter((bundle) => {
    const record = seed.list('subscriptions')[0] as Rec;
    return collectionOf('subscriptions').view?.(record, scanning(seed, bundle)) !== record;
  });
  const project = (bundle: Bundle) =>
    bodyProjector(bundle, 'listSubscriptions').part?.('results')?.part?.('[]') as Projector;
  const stockIds = ids('stockrecords') as number[];
  const products = [...new Set(seed.list('stockrecords').map((s) => s.product?.id))];
  /** A change of a stock record: its counts, its product, or a new one (a low key goes first in key order). */
  const change = fc.record({
    state: fc.integer({ min: 0, max: 1 }),
    id: fc.oneof(pick(stockIds), fc.integer({ min: -3, max: 0 }), fc.constant(10_000)),
    product: pick(products),
    stock: fc.integer({ min: 0, max: 500 }),
  });

  it('is answered as made anew whenever a stock record it read changes, in either of two states (property)', () => {
    expect(nesting.length).toBeGreaterThan(0);
    const seeded = new State(structuredClone(engine.export() as Record<string, Rec[]>));
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 8 }), (changes) => {
        const states = [seeded.clone(), seeded.clone()];
        for (const c of changes) {
          const state = states[c.state] as State;
          const base = state.get('stockrecords', c.id) ?? seed.list('stockrecords')[0];
          state.put('stockrecords', {
            ...base,
            id: c.id,
            product: { ...base?.product, id: c.product },
            num_in_stock: c.stock,
          });
          for (const bundle of nesting) {
            for (const s of states) {
              const reads = new ViewReads(s, bundle);
              for (const record of s.list('subscriptions').slice(0, 12)) {
                const bytes =
                  keptText(project(bundle), record, s) ??
                  reads.make('subscriptions', project(bundle), record, collectionOf('subscriptions').view);
                const slow = JSON.stringify(project(bundle)(viewed('subscriptions', record, s, bundle)));
                expectBytesOf(bytes, slow);
              }
            }
          }
        }
      }),
      { numRuns: 25, seed: 28 },
    );
  });
});
