/**
 * The fast paths of the engine's hot path (issue #17's throughput) against the slow ways they stand
 * in for: a plain request target read without `new URL`, the router's index by first segment, the
 * request log's bodies kept without copying, a record's JSON length counted without serializing it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyText, parseTarget } from '../../src/http/index.ts';
import { RequestLog } from '../../src/mock/admin/request-log.ts';
import { jsonLength } from '../../src/mock/collection-state.ts';
import { createMockEngine, createRouter } from '../../src/mock/index.ts';
import { JsonBytes, jsonBytes } from '../../src/mock/stages/respond.ts';

const viaUrl = (target: string) => {
  const url = new URL(`http://mock.invalid${target.startsWith('/') ? target : `/${target}`}`);
  return { pathname: url.pathname, query: [...url.searchParams] };
};
const viaParse = (target: string) => {
  const { pathname, searchParams } = parseTarget(target);
  return { pathname, query: [...searchParams] };
};

describe('parseTarget', () => {
  it.each([
    '/stockrecords/3/',
    '/subscriptions/?status=active&status=past_due&is_test=false',
    '/orders/100234/transactions/?cursor=abc%3D&x=a+b',
    '/a.b/c/',
    '/a/../b/',
    '/./x',
    '//double//',
    '/a%2e%2E/b',
    '/x\\y',
    '/ünïcode/?q=é',
    '/sp ace/?q=a b',
    '/q/?a=1#frag',
    '/tab\t/?a=\n1',
    "/quote'/?q='\"<>`",
    '',
    '?only=query',
  ])('reads %j as new URL does', (target) => {
    expect(viaParse(target)).toEqual(viaUrl(target));
  });

  it('reads any target as new URL does (property)', () => {
    const chars = fc.constantFrom(...'/aZ09.-_~%2eE?&=#+ \\\'"<>é€\t\u007f\ud800'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 24 }), (tail) => {
        const target = `/${tail}`;
        expect(viaParse(target)).toEqual(viaUrl(target));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the engine answers at once when no stage waits', () => {
  const engine = createMockEngine();
  const raw = (method: string, target: string, body?: Uint8Array | Promise<Uint8Array>) => ({
    method,
    target,
    origin: 'http://mock.test',
    header: (name: string) =>
      ({ authorization: 'Bearer at-once', 'content-type': body ? 'application/json' : undefined })[name],
    readBody: () => body ?? new Uint8Array(),
  });
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

  it('a read, and a write with no state file to wait for: a value, not a promise', () => {
    const read = engine.handleRaw(raw('GET', '/stockrecords/3/'));
    expect(read).not.toBeInstanceOf(Promise);
    expect(read).toMatchObject({ status: 200 });
    const write = engine.handleRaw(raw('PUT', '/pages/1/', json({ title: 'At once' })));
    expect(write).not.toBeInstanceOf(Promise);
    expect(write).toMatchObject({ status: 200 });
    expect(engine.inspect('at-once').get('pages', 1)?.title).toBe('At once');
  });

  it('a body still arriving: a promise, answered the same', async () => {
    const later = engine.handleRaw(raw('PATCH', '/tickets/7/', Promise.resolve(json({ subject: 'Later' }))));
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toMatchObject({ status: 200 });
    expect(JSON.parse(bodyText((await later).body)).subject).toBe('Later');
  });
});

describe('router index by first segment', () => {
  const templates = [
    ['/tickets/{id}/', 'ticket'],
    ['/tickets/open/', 'open-tickets'],
    ['/{anything}/open/', 'any-open'],
    ['/{a}/{b}/', 'any-two'],
    ['/store/', 'store'],
  ];
  const router = createRouter(
    templates.map(([path = '', target = '']) => ({ method: 'get', path, version: 'v1', target })),
  );
  const target = (path: string) => {
    const found = router.resolve('GET', path, undefined);
    return found.kind === 'matched' ? found.target : found.kind;
  };

  it('keeps the most specific template first, across literal and parameter first segments', () => {
    expect(target('/tickets/open/')).toBe('open-tickets');
    expect(target('/tickets/7/')).toBe('ticket');
    expect(target('/orders/open/')).toBe('any-open');
    expect(target('/orders/7/')).toBe('any-two');
    expect(target('/store/')).toBe('store');
    expect(target('/nowhere/')).toBe('not-found');
  });
});

describe('request log bodies', () => {
  const entry = (responseBody: string | Uint8Array) => ({
    method: 'GET',
    path: '/x/',
    version: 'v1',
    status: 200,
    ms: 1,
    stateKey: 'token',
    requestType: undefined,
    requestBody: '',
    responseType: 'application/json',
    responseBody,
  });

  it('lists a body cut at 4,096 characters, whether short or cut (copied) when added', () => {
    const log = new RequestLog(4);
    for (const size of [10, 5_000, 70_000]) log.add(entry('x'.repeat(size)));
    const [big, middle, small] = log.list();
    expect(small?.response).toEqual({ contentType: 'application/json', body: 'x'.repeat(10), truncated: false });
    expect(middle?.response).toEqual({ contentType: 'application/json', body: 'x'.repeat(4096), truncated: true });
    expect(big?.response).toEqual({ contentType: 'application/json', body: 'x'.repeat(4096), truncated: true });
    expect(small?.state).toMatch(/^[0-9a-f]{12}$/);
  });
  it('lists a body given as bytes as the same text: cut at 4,096 characters, 1 to 4 bytes each', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    for (const char of ['x', 'é', '€', '😀']) {
      const log = new RequestLog(4);
      // Exactly the limit, one over it (in UTF-16 units, as a text body counts), far over it.
      for (const count of [4096 / char.length, 4096 / char.length + 1, 20_000])
        log.add(entry(bytes(char.repeat(count))));
      const [far, over, exact] = log.list().map((logged) => logged.response);
      expect(exact).toEqual({
        contentType: 'application/json',
        body: char.repeat(4096 / char.length),
        truncated: false,
      });
      expect(over).toEqual({ contentType: 'application/json', body: char.repeat(4096 / char.length), truncated: true });
      expect(far).toEqual(over);
    }
    // ASCII up to the limit, then a character of two bytes: its first byte alone decodes past the limit.
    const log = new RequestLog(1);
    log.add(entry(bytes(`${'x'.repeat(4096)}é`)));
    expect(log.list()[0]?.response).toEqual({
      contentType: 'application/json',
      body: 'x'.repeat(4096),
      truncated: true,
    });
  });

  it('does not hold a long body once cut: 50 bodies of 1 MB leave a few hundred KB behind', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const log = new RequestLog(100);
    gc();
    // Differences, not totals: the worker's other files (isolate: false) hold buffers of their own.
    const { heapUsed: before, arrayBuffers: buffersBefore } = process.memoryUsage();
    for (let i = 0; i < 50; i++) log.add(entry(`${i}`.padEnd(1_000_000, 'x')));
    const bytes = new TextEncoder().encode('x'.repeat(1_000_000));
    for (let i = 0; i < 50; i++) log.add(entry(bytes.slice()));
    // V8 frees the backing stores of collected array buffers on a background thread: right after a
    // collection they may still count (15 MB once, in a fresh clone's run). Collected again after
    // short waits until they no longer do, for at most ~1 s; buffers the log held would never go.
    let usage = process.memoryUsage();
    for (let tries = 0; tries < 20; tries++) {
      gc();
      usage = process.memoryUsage();
      if (usage.arrayBuffers - buffersBefore < 10_000_000) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(usage.heapUsed - before).toBeLessThan(5_000_000);
    // 50 byte bodies of 1 MB held whole would be 50 MB of array buffers.
    expect(usage.arrayBuffers - buffersBefore).toBeLessThan(10_000_000);
    expect(log.list(1)[0]?.response.body).toHaveLength(4096);
    expect(bytes).toHaveLength(1_000_000);
  });
});

describe('a record size counted without serializing it', () => {
  it('is JSON.stringify’s length for every seeded record of every collection', () => {
    const data = createMockEngine().export() as Record<string, unknown[]>;
    let records = 0;
    for (const list of Object.values(data)) {
      for (const record of list) {
        records++;
        expect(jsonLength(record)).toBe(JSON.stringify(record).length);
      }
    }
    expect(records).toBeGreaterThan(100);
  });

  it.each([
    [{ a: undefined, b: () => 1, c: [undefined, 1.5, -0, 1e21, Number.NaN], d: { e: null, f: false } }],
    [[]],
    [{}],
    ['text'],
  ])('counts %j as JSON.stringify does', (value) => {
    expect(jsonLength(value)).toBe(JSON.stringify(value).length);
  });
});

describe('an envelope of records serialized in one pass', () => {
  // Values JSON.stringify treats specially: left out in objects, null in arrays, toJSON called.
  const odd = fc.constantFrom(undefined, () => 1, Number.NaN, -0, new Date(0), 1e21);
  const value = fc.letrec((tie) => ({
    any: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), odd, tie('array'), tie('object')),
    array: fc.array(tie('any'), { maxLength: 4 }),
    object: fc.dictionary(fc.string({ maxLength: 4 }), tie('any'), { maxKeys: 4 }),
  })).any;

  const utf8 = (value: unknown) => {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : encoder.encode(text);
  };
  const encoder = new TextEncoder();

  it('writes the UTF-8 of what JSON.stringify writes, with JsonBytes parts placed as they are', () => {
    fc.assert(
      fc.property(value, fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }), (body, records) => {
        expect(jsonBytes(body)).toEqual(utf8(body));
        const parts = records.map((record) => new JsonBytes(utf8(record) as Uint8Array));
        const envelope = { next: null, body, results: parts };
        expect(jsonBytes(envelope)).toEqual(utf8({ next: null, body, results: records }));
      }),
      { numRuns: 500 },
    );
  });

  it('encodes text beyond ASCII between the parts as TextEncoder does (2-, 3- and 4-byte characters)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '"', 'é', '€', '😀', '\n', '\u0000') });
    fc.assert(
      fc.property(fc.dictionary(text, text, { maxKeys: 3 }), text, (envelope, record) => {
        const parts = { ...envelope, results: [new JsonBytes(utf8(record) as Uint8Array)], after: record };
        expect(jsonBytes(parts)).toEqual(utf8({ ...envelope, results: [record], after: record }));
      }),
      { numRuns: 300 },
    );
  });

  it('answers a lone JsonBytes as it is, without a copy', () => {
    const bytes = utf8({ id: 1 }) as Uint8Array;
    expect(jsonBytes(new JsonBytes(bytes))).toBe(bytes);
  });
});
