/**
 * Parses the `Prefer` request header (RFC 7240), once per request, into the mock preferences: the
 * ones Prism understands (`Prefer: code=401`, `Prefer: example=eur`, `Prefer: dynamic=true, seed=abc`)
 * and the failure scenarios' (`fail=`, `delay=`, `retry-after=`, src/mock/scenarios.ts); comma- or
 * semicolon-separated, values optionally quoted. A bad token anywhere refuses the whole header.
 */

/** The failures a `fail=` token (or the mock's `--fail` rule, src/mock/scenarios.ts) asks for. */
export type Failure = 429 | 500 | 503 | 'drop';
export const FAILURES: readonly Failure[] = [429, 500, 503, 'drop'];
/** The largest `delay=` (a minute). */
export const MAX_DELAY_MS = 60_000;

export function parseFailure(text: string): Failure | undefined {
  return FAILURES.find((failure) => String(failure) === text.trim().toLowerCase());
}

export interface MockPreferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: string;
  /** A failure scenario asked for (src/mock/scenarios.ts). */
  fail?: Failure;
  /** Milliseconds before the answer. */
  delay?: number;
  /** Seconds in `Retry-After` of a 429 or 503. */
  retryAfter?: number;
}

/** The largest `retry-after=` (an hour). */
const MAX_RETRY_AFTER = 3600;

/** `delay=` and `retry-after=`: a whole number from 0 to `max`, else the message. */
function wholeNumber(name: string, value: string, max: number): number | string {
  const number = Number(value);
  return /^\d+$/.test(value) && number <= max ? number : `${name}=${value}: use a whole number from 0 to ${max}`;
}

export type PreferResult = { ok: true; preferences: MockPreferences } | { ok: false; message: string };

export function parsePrefer(header: string | undefined): PreferResult {
  const preferences: MockPreferences = {};
  if (!header) return { ok: true, preferences };
  for (const part of header.split(/[,;]/)) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const equals = trimmed.indexOf('=');
    const key = (equals === -1 ? trimmed : trimmed.slice(0, equals)).trim().toLowerCase();
    const value =
      equals === -1
        ? ''
        : trimmed
            .slice(equals + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    switch (key) {
      case 'code':
        if (!/^[1-5]\d\d$/.test(value))
          return { ok: false, message: `code must be an HTTP status code, got "${value}"` };
        preferences.code = Number(value);
        break;
      case 'example':
        if (!value) return { ok: false, message: 'example needs a name, e.g. example=default' };
        preferences.example = value;
        break;
      case 'dynamic':
        if (value !== 'true' && value !== 'false')
          return { ok: false, message: `dynamic must be true or false, got "${value}"` };
        preferences.dynamic = value === 'true';
        break;
      case 'seed':
        if (!value) return { ok: false, message: 'seed needs a value' };
        preferences.seed = value;
        break;
      case 'fail': {
        const failure = parseFailure(value);
        if (failure === undefined) return { ok: false, message: `fail=${value}: use one of ${FAILURES.join(', ')}` };
        preferences.fail = failure;
        break;
      }
      case 'delay':
      case 'retry-after': {
        const number = wholeNumber(key, value, key === 'delay' ? MAX_DELAY_MS : MAX_RETRY_AFTER);
        if (typeof number === 'string') return { ok: false, message: number };
        if (key === 'delay') preferences.delay = number;
        else preferences.retryAfter = number;
        break;
      }
      default:
        // Other preferences (return=minimal, respond-async...) are not the mock's: ignored, per RFC 7240.
        break;
    }
  }
  return { ok: true, preferences };
}
