/**
 * The `date-time` format (RFC 3339 §5.6) with a fast path for its usual spelling, UTC with a `T` and
 * a `Z` (`2024-03-03T21:12:49Z`, fractions of a second allowed): read by char codes, no regex, no
 * split. A string the fast path does not accept (an offset, a lower-case `t`, a space, a leap
 * second, anything invalid) goes to ajv-formats' own check, so the format accepts exactly what it
 * did. Date-times are most of a record's format checks: the proxy checks every answer with them.
 */
import addFormats from 'ajv-formats';

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const ZERO = 48;

const isDigit = (code: number) => code >= ZERO && code <= ZERO + 9;

/** The number of the two digits at `at`, or -1 when they are not digits. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at);
  const units = text.charCodeAt(at + 1);
  return isDigit(tens) && isDigit(units) ? (tens - ZERO) * 10 + units - ZERO : -1;
}

/** `YYYY-MM-DDTHH:MM:SS[.f+]Z` with every field in range (a leap second is left to the full check). */
export function isUtcDateTime(text: string): boolean {
  const last = text.length - 1;
  if (last < 19 || text.charCodeAt(last) !== 90 /* Z */) return false;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return false;
  if (last > 19) {
    // Fractions: a dot, then digits only, up to the Z.
    if (last === 20 || text[19] !== '.') return false;
    for (let i = 20; i < last; i++) if (!isDigit(text.charCodeAt(i))) return false;
  }
  const century = twoDigits(text, 0);
  const yearOf = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (century < 0 || yearOf < 0 || month < 1 || month > 12 || day < 1) return false;
  const year = century * 100 + yearOf;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : (DAYS[month] as number))) return false;
  const hours = twoDigits(text, 11);
  const minutes = twoDigits(text, 14);
  const seconds = twoDigits(text, 17);
  return hours >= 0 && hours <= 23 && minutes >= 0 && minutes <= 59 && seconds >= 0 && seconds <= 59;
}

const full = addFormats.default.get('date-time') as { validate: (text: string) => boolean; compare: unknown };

/** The format's definition for `ajv.addFormat`: the fast path, then ajv-formats' check; its comparison unchanged. */
export const DATE_TIME_FORMAT = {
  type: 'string' as const,
  validate: (text: string) => isUtcDateTime(text) || full.validate(text),
  compare: full.compare as (a: string, b: string) => number | undefined,
};
