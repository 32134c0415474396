/**
 * Personal data out of recordings: every value under a redacted field is replaced by a stable
 * fake, derived from the value by an HMAC keyed once per proxy run, so the same input maps to the
 * same fake across the whole recording (a customer's email in a subscription and in its tickets'
 * `from_email` stay equal: relations survive) while the input cannot be recovered from the file.
 *
 * A key matches a field `f` when it is `f`, ends with `_f` or starts with `f_` (`email` matches
 * `from_email` and `customer_email`; `ip` matches `ip_address` and `browser_ip`). Query parameters
 * are matched the same way. Fakes keep the value's kind: an email stays an email
 * (`user-…@example.invalid`), an ip an IPv4 address (`10.…`), a phone number digits (`+1555…`),
 * digits the same number of digits (`bankcard_last_four`), any other string `redacted-…`.
 *
 * Credentials and payment data are redacted always, whatever `--redact` says: every field whose name
 * is credential-like ({@link CREDENTIAL}: the contract's `card_token`, `bankcard_first_six`,
 * `bankcard_last_four`, `auth_code`, `certificate_token`, `environment_key`, `paypal_vault_id`, see
 * {@link credentialFields}, and any such field the API sends that the contract lacks), and every
 * credential-like query parameter ({@link CREDENTIAL_QUERY}: `access_token`, `api_key`, `key`…).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Bundle, Json } from '../contract/index.ts';

/** `--redact` when not given: personal data. */
export const DEFAULT_REDACT = ['email', 'phone_number', 'ip'] as const;

/** A field name of a credential or of payment data, redacted always. */
export const CREDENTIAL =
  /token|secret|passw|credential|signature|auth_code|_key$|api_?key|bankcard|card_?number|cvc|cvv|iban|vault/i;

/** A query parameter carrying a credential, redacted always (`?access_token=`, `?key=`, `?code=`). */
export const CREDENTIAL_QUERY = new RegExp(`${CREDENTIAL.source}|^(key|code|auth|sig|password)$`, 'i');

/** The contract's response and request fields named like credentials or payment data, sorted. */
export function credentialFields(bundles: readonly Bundle[]): string[] {
  const names = new Set<string>();
  const walk = (node: Json): void => {
    if (!node || typeof node !== 'object') return;
    if (node.properties && typeof node.properties === 'object') {
      for (const name of Object.keys(node.properties)) if (CREDENTIAL.test(name)) names.add(name);
    }
    for (const child of Object.values<Json>(node)) walk(child);
  };
  for (const bundle of bundles) walk(bundle.document);
  return [...names].sort();
}

export interface Redactor {
  readonly fields: readonly string[];
  /** A deep copy of `value` with every matching field's value faked. */
  value<T>(value: T): T;
  /** A request target (`/path?query`) with matching query parameters faked. */
  target(target: string): string;
}

const matches = (key: string, field: string) =>
  key === field || key.endsWith(`_${field}`) || key.startsWith(`${field}_`);

/**
 * A redactor of `fields` (matched as above) and of every credential-like field and query parameter,
 * `fields` or not.
 */
export function createRedactor(fields: readonly string[], key: Uint8Array = randomBytes(32)): Redactor {
  const fieldOf = (name: string) =>
    fields.find((f) => matches(name.toLowerCase(), f.toLowerCase())) ?? (CREDENTIAL.test(name) ? name : undefined);
  const fake = (field: string, input: string): string => {
    const digest = createHmac('sha256', key).update(`${field}\0${input}`).digest();
    const hex = digest.toString('hex').slice(0, 12);
    if (/mail/.test(field)) return `user-${hex}@example.invalid`;
    if (/(^|_)ip($|_)/.test(field)) return `10.${digest[0]}.${digest[1]}.${digest[2]}`;
    if (/phone/.test(field)) return `+1555${String(digest.readUInt32BE(0) % 10_000_000).padStart(7, '0')}`;
    // Card digits stay digits of the same length (the recording still loads as the contract says).
    if (/^\d{1,32}$/.test(input)) return [...input].map((_, i) => String((digest[i % 32] as number) % 10)).join('');
    return `redacted-${hex}`;
  };
  const redactUnder = (field: string, value: unknown): unknown => {
    if (typeof value === 'string') return fake(field, value);
    if (typeof value === 'number') return Number(fake(field, String(Math.abs(Math.trunc(value)))));
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
    value: <T>(value: T) => walk(value) as T,
    target(target) {
      const at = target.indexOf('?');
      if (at === -1) return target;
      const search = new URLSearchParams(target.slice(at + 1));
      const out = new URLSearchParams();
      for (const [name, value] of search) {
        const field = fieldOf(name) ?? (CREDENTIAL_QUERY.test(name) ? name : undefined);
        out.append(name, field === undefined ? value : fake(field, value));
      }
      return `${target.slice(0, at)}?${out}`;
    },
  };
}
