/**
 * Personal data out of recordings: every value under a redacted field is replaced by a stable
 * fake, derived from the value by an HMAC keyed once per proxy run, so the same input maps to the
 * same fake across the whole recording (a customer's email in a subscription and in its tickets'
 * `from_email` stay equal: relations survive) while the input cannot be recovered from the file.
 *
 * A key matches a field `f` when it is `f`, ends with `_f` or starts with `f_` (`email` matches
 * `from_email` and `customer_email`; `ip` matches `ip_address` and `browser_ip`). Query parameters
 * are matched the same way. Fakes keep the value's kind: an email stays an email
 * (`user-…@example.invalid`), an ip an IPv4 address (`10.…`), a phone number digits (`+1555…`).
 */
import { createHmac, randomBytes } from 'node:crypto';

/** `--redact` when not given. */
export const DEFAULT_REDACT = ['email', 'phone_number', 'ip'] as const;

export interface Redactor {
  readonly fields: readonly string[];
  /** A deep copy of `value` with every matching field's value faked. */
  value<T>(value: T): T;
  /** A request target (`/path?query`) with matching query parameters faked. */
  target(target: string): string;
}

const matches = (key: string, field: string) =>
  key === field || key.endsWith(`_${field}`) || key.startsWith(`${field}_`);

export function createRedactor(fields: readonly string[], key: Uint8Array = randomBytes(32)): Redactor {
  const fieldOf = (name: string) => fields.find((f) => matches(name.toLowerCase(), f.toLowerCase()));
  const fake = (field: string, input: string): string => {
    const digest = createHmac('sha256', key).update(`${field}\0${input}`).digest();
    const hex = digest.toString('hex').slice(0, 12);
    if (/mail/.test(field)) return `user-${hex}@example.invalid`;
    if (/(^|_)ip($|_)/.test(field)) return `10.${digest[0]}.${digest[1]}.${digest[2]}`;
    if (/phone/.test(field)) return `+1555${String(digest.readUInt32BE(0) % 10_000_000).padStart(7, '0')}`;
    return `redacted-${hex}`;
  };
  const redactUnder = (field: string, value: unknown): unknown => {
    if (typeof value === 'string') return fake(field, value);
    if (Array.isArray(value)) return value.map((item) => redactUnder(field, item));
    return walk(value);
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value)) {
      const field = fieldOf(name);
      out[name] = field === undefined ? walk(child) : redactUnder(field, child);
    }
    return out;
  };
  return {
    fields,
    value: <T>(value: T) => (fields.length === 0 ? structuredClone(value) : (walk(value) as T)),
    target(target) {
      const at = target.indexOf('?');
      if (at === -1 || fields.length === 0) return target;
      const search = new URLSearchParams(target.slice(at + 1));
      const out = new URLSearchParams();
      for (const [name, value] of search) {
        const field = fieldOf(name);
        out.append(name, field === undefined ? value : fake(field, value));
      }
      return `${target.slice(0, at)}?${out}`;
    },
  };
}
