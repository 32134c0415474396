/**
 * The JSON limits' fast looks (src/validation/json-limits.ts) against plain definitions: a value
 * nests too deep exactly when its depth reaches the limit, and the unsafe numbers named are those
 * a walk of every number finds, for random JSON values (issue 28: both run on every write).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestingViolation, unsafeNumbers } from '../../src/validation/index.ts';

/** Levels of arrays and objects below a value (a scalar: 0, `{}`: 1). */
const depth = (value: unknown): number =>
  value && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0;

/** Every number's location that is not finite or beyond 2^53 - 1, in walk order. */
const unsafeAt = (value: unknown, at: string[] = ['body']): string[] => {
  if (typeof value === 'number')
    return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)) ? [] : [at.join('.')];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => unsafeAt(child, [...at, key]));
};

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.double(), fc.integer(), fc.constant(2 ** 60)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('nestingViolation', () => {
  it('names a value exactly when it nests as deep as the limit (property)', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 6 }), (value, limit) => {
        const violation = nestingViolation(value, ['body'], limit);
        expect(violation !== undefined).toBe(depth(value) > limit);
        if (violation) expect(violation).toMatchObject({ field: 'body', rule: 'maxDepth' });
      }),
      { numRuns: 2000 },
    );
  });

  it('reports the path that goes too deep, named by the subject when given', () => {
    const value = { a: [1, { b: { c: {} } }] };
    expect(nestingViolation(value, ['body'], 3)?.message).toBe(
      'body nests deeper than 3 levels of arrays and objects (at body.a[1].b…)',
    );
    expect(nestingViolation(value, ['body'], 3, 'Record x')?.message).toMatch(/^Record x nests deeper than 3 /);
    expect(nestingViolation(value, ['body'], 5)).toBeUndefined();
  });
});

describe('unsafeNumbers', () => {
  it('names every number that is not finite or beyond 2^53 - 1, and only those (property)', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(unsafeNumbers(value).map((v) => v.location.join('.'))).toEqual(unsafeAt(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('adds to the list it is given', () => {
    const out = unsafeNumbers({ a: 1 }, ['body'], []);
    expect(unsafeNumbers({ b: Number.POSITIVE_INFINITY }, ['body'], out)).toBe(out);
    expect(out.map((v) => [v.field, v.rule])).toEqual([['body.b', 'finite']]);
  });
});
