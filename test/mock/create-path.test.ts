/**
 * The parts of a create's path made once instead of per request (issue 28, POST /gift-cards/)
 * against the slow ways they stand in for: the bearer token of the last Authorization header read,
 * a JSON answer's headers from a route's frozen ones, a projector not called for a value that is no
 * object (it keeps it as it is), the writes in flight kept in an array that a reset cancels, and
 * a new gift card's code made as one string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Json, responseMediaOf } from '../../src/contract/index.ts';
import { newCardCode } from '../../src/mock/model/gift-cards.ts';
import { createPrng } from '../../src/mock/prng.ts';
import { createProjector } from '../../src/mock/project.ts';
import { tokenOf } from '../../src/mock/stages/intake.ts';
import { json } from '../../src/mock/stages/respond.ts';
import { bundles, engineOf, send } from './engine.ts';

/** The token as the intake read it before: the regular expression on every request. */
const slowToken = (authorization: string | undefined) =>
  authorization === undefined ? undefined : /^bearer[ \t]+(\S.*)$/i.exec(authorization.trim())?.[1]?.trim();

describe('the bearer token of the last Authorization header read', () => {
  it('is the token the header holds, for any sequence of headers, repeated or not (property)', () => {
    const headers = fc.oneof(
      fc.constantFrom('Bearer a', 'bearer\tb ', ' Bearer  a', 'Basic a', 'Bearer', 'Bearer a, Bearer b', ''),
      fc.string({ unit: fc.constantFrom(...'Bear \tx,.'.split('')), maxLength: 12 }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(fc.array(headers, { maxLength: 20 }), (sequence) => {
        for (const header of sequence) expect(tokenOf(header)).toBe(slowToken(header));
      }),
      { numRuns: 500 },
    );
  });
});

describe('a JSON answer’s headers', () => {
  const served = (version: string) => Object.freeze({ 'X-Version': version });

  it('are the Content-Type and the given ones, made once per frozen headers and frozen', () => {
    const [a, b] = [served('a'), served('b')];
    for (const given of [a, a, b, a]) {
      const { headers } = json(200, {}, given);
      expect(headers).toEqual({ 'Content-Type': 'application/json', ...given });
      expect(Object.isFrozen(headers)).toBe(true);
    }
    expect(json(200, {}, a).headers).toBe(json(200, [], a).headers);
  });

  it('are made anew from headers that are not frozen (they may change between answers)', () => {
    const given: Record<string, string> = { 'X-Version': 'a' };
    const first = json(200, {}, given).headers;
    given['X-More'] = 'b';
    expect(json(200, {}, given).headers).toEqual({
      'Content-Type': 'application/json',
      'X-Version': 'a',
      'X-More': 'b',
    });
    expect(first).toEqual({ 'Content-Type': 'application/json', 'X-Version': 'a' });
    expect(Object.isFrozen(first)).toBe(false);
  });

  it('reach an adapter as an object of its own, which it may change', () => {
    const engine = engineOf();
    const create = () =>
      engine.handleRaw({
        method: 'POST',
        target: '/gift-cards/',
        origin: 'http://mock.test',
        header: (name) =>
          ({ authorization: 'Bearer headers', 'content-type': 'application/json' })[name as 'authorization'],
        readBody: () => new TextEncoder().encode(JSON.stringify({ currency: 'EUR', initial: '5.00' })),
      });
    const [first, second] = [create(), create()];
    if (first instanceof Promise || second instanceof Promise) throw new Error('a create with no state file waits');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers).not.toBe(second.headers);
    first.headers.Connection = 'close';
    expect(second.headers.Connection).toBeUndefined();
  });
});

describe('a projector', () => {
  const values = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));

  it('keeps a value that is no object or array as it is, for every response schema of every bundle (property)', () => {
    const projectors = bundles.flatMap((bundle) => {
      const projector = createProjector(bundle.document);
      const schemas = bundle.operations.map((o) => responseMediaOf(bundle.document, o)?.schema as Json | undefined);
      const components = Object.values<Json>(bundle.document.components?.schemas ?? {});
      return [...schemas, ...components].filter((s) => s !== undefined).map((schema) => projector(schema));
    });
    expect(projectors.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(values, (value) => {
        for (const project of projectors) expect(Object.is(project(value), value)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the writes in flight', () => {
  const create = (engine: ReturnType<typeof engineOf>, token: string, delay: number) =>
    send(engine, 'POST', '/gift-cards/', {
      token,
      body: { currency: 'EUR', initial: '5.00' },
      headers: { Prefer: `delay=${delay}` },
    });

  it('a reset cancels every write in flight on its state, whichever ended before, and no other', async () => {
    const engine = engineOf();
    // In flight together: a, b, a again; b ends first (the last one takes its place in the list).
    const first = create(engine, 'a', 60);
    const other = create(engine, 'b', 5);
    const again = create(engine, 'a', 80);
    expect((await other).status).toBe(200);
    await engine.reset('a');
    expect([(await first).status, (await again).status]).toEqual([409, 409]);
    // Ended: a write after the reset lands.
    expect((await create(engine, 'a', 0)).status).toBe(200);
    expect((await create(engine, 'b', 0)).status).toBe(200);
  });
});

describe('a new gift card’s code', () => {
  it('is the code of three chars(4) of its seed’s PRNG, joined (property)', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const prng = createPrng(seed);
        expect(newCardCode(seed)).toBe(`GC-${prng.chars(4)}-${prng.chars(4)}-${prng.chars(4)}`);
      }),
      { numRuns: 2000 },
    );
  });
});
