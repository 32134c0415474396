// The date-time format's fast path (src/validation/date-time.ts) accepts exactly what ajv-formats'
// check accepts: on table cases at every edge, on random RFC 3339-like strings, and through ajv.
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_TIME_FORMAT, isUtcDateTime } from '../../src/validation/date-time.ts';
import { ajvWithBundle } from '../../src/validation/index.ts';

const full = addFormats.default.get('date-time') as { validate: (text: string) => boolean };

describe('the date-time format', () => {
  it.each([
    ['2024-03-03T21:12:49Z', true],
    ['2024-03-03T21:12:49.123456Z', true],
    ['2024-02-29T00:00:00Z', true],
    ['2023-02-29T00:00:00Z', false],
    ['1900-02-29T00:00:00Z', false],
    ['2000-02-29T00:00:00Z', true],
    ['2024-04-31T00:00:00Z', false],
    ['2024-13-01T00:00:00Z', false],
    ['2024-00-01T00:00:00Z', false],
    ['2024-01-00T00:00:00Z', false],
    ['2024-01-01T24:00:00Z', false],
    ['2024-01-01T23:60:00Z', false],
    ['2024-01-01T23:59:60Z', true], // a leap second: the full check's
    ['2024-01-01T22:59:60Z', false],
    ['2024-01-01T21:12:49.Z', false],
    ['2024-01-01T21:12:49', false],
    ['2024-01-01T21:12:49+02:00', true],
    ['2024-01-01t21:12:49z', true],
    ['2024-01-01 21:12:49Z', true],
    ['2024-1-01T21:12:49Z', false],
    ['2024-01-01T21:12:4aZ', false],
    ['2024-01-01T21:12:49.1a2Z', false],
    ['', false],
  ])('%s: %s, as ajv-formats says', (text, valid) => {
    expect(full.validate(text)).toBe(valid);
    expect(DATE_TIME_FORMAT.validate(text)).toBe(valid);
  });

  it('accepts exactly what ajv-formats accepts, on random near-RFC 3339 strings', () => {
    const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
    const oddly = fc.constantFrom('-', ':', 'T', 't', ' ', 'Z', 'z', '.', '+', 'a', '9');
    const near = fc
      .tuple(
        digits(4),
        digits(2),
        digits(2),
        digits(2),
        digits(2),
        digits(2),
        fc.option(digits(3)),
        fc.array(oddly, { maxLength: 2 }),
      )
      .map(
        ([y, mo, d, h, mi, s, frac, extra]) =>
          `${y}-${mo}-${d}T${h}:${mi}:${s}${frac ? `.${frac}` : ''}Z${extra.join('')}`,
      );
    const mutated = fc
      .tuple(near, fc.nat(), oddly)
      .map(([text, at, char]) => `${text.slice(0, at % text.length)}${char}${text.slice((at % text.length) + 1)}`);
    fc.assert(
      fc.property(fc.oneof(near, mutated), (text) => {
        if (isUtcDateTime(text)) expect(full.validate(text)).toBe(true);
        expect(DATE_TIME_FORMAT.validate(text)).toBe(full.validate(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('is the format ajv checks', () => {
    const validate = ajvWithBundle({}, 'date-time').compile({ type: 'string', format: 'date-time' });
    expect(validate('2024-03-03T21:12:49Z')).toBe(true);
    expect(validate('2024-02-30T21:12:49Z')).toBe(false);
    expect(validate('2024-03-03T21:12:49+01:00')).toBe(true);
  });
});
