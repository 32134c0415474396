/**
 * Optional scope enforcement (spec §5: each operation needs the scope of §4). A plain bearer token
 * (no `scopes:` prefix, not JWT-shaped) holds every scope, as Prism does. A token that carries its
 * scopes is checked, in any of these forms:
 *   - readable: `scopes:tickets:read,store:read` (the prefix in any case; comma- or space-separated);
 *   - a JWT (three dot-separated parts, or starting `eyJ`) whose payload has `scope` or `scp`, each
 *     a space-separated string (RFC 8693/9068; Azure AD's `scp`) or an array of strings; the
 *     signature is not checked (a mock holds no keys). A JWT without either claim says nothing of
 *     scopes and holds every scope, like a plain token.
 * Scopes fail closed: a JWT-shaped token that cannot be read (not three parts, a payload that does
 * not decode to a JSON object, a claim of another type) holds no scope, and every operation that
 * needs one answers 403 naming the rule (`scope-claim`), never 200.
 * A call lacking the scope gets 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"` (RFC 6750 §3.1) and a problem body naming the missing scope. Where §4 lists two scopes
 * the contract makes them alternatives (two security requirements): either one suffices.
 */
import { type Refusal, refusal } from '../http/index.ts';

/** What a token says of its scopes: every scope, a set, or a claim the mock cannot read (none). */
export type TokenScopes = { all: true } | { scopes: Set<string> } | { unreadable: string };

const EVERY_SCOPE: TokenScopes = { all: true };

/** A `scope`/`scp` claim as a set: a space-separated string or an array of strings, else a reason. */
function claimScopes(name: string, claim: unknown): Set<string> | string {
  if (typeof claim === 'string') return new Set(claim.split(/\s+/).filter(Boolean));
  if (Array.isArray(claim) && claim.every((s) => typeof s === 'string')) return new Set(claim);
  return `the JWT's "${name}" claim is ${Array.isArray(claim) ? 'an array holding non-strings' : claim === null ? 'null' : `a ${typeof claim}`}, not a space-separated string or an array of strings`;
}

function jwtPayload(token: string): Record<string, unknown> | string {
  const parts = token.split('.');
  if (parts.length !== 3) return `the token looks like a JWT but has ${parts.length} parts, not 3`;
  try {
    const base64 = (parts[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const payload: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, unknown>;
  } catch {
    // Reported below, the same as a payload that is not an object.
  }
  return "the JWT's payload does not decode to a JSON object";
}

/** Tokens read lately: a client sends the same token with every request. */
const readTokens = new Map<string, TokenScopes>();
const READ_TOKENS_KEPT = 1024;

/** The scopes a token carries (see the module comment for the forms read). */
export function scopesOfToken(token: string): TokenScopes {
  let read = readTokens.get(token);
  if (read === undefined) {
    if (readTokens.size >= READ_TOKENS_KEPT) readTokens.clear();
    read = readScopes(token);
    readTokens.set(token, read);
  }
  return read;
}

function readScopes(token: string): TokenScopes {
  const readable = /^scopes:(.*)$/is.exec(token);
  if (readable) return { scopes: new Set((readable[1] ?? '').split(/[\s,]+/).filter(Boolean)) };
  const dot = token.indexOf('.');
  const jwtShaped = token.startsWith('eyJ') || (dot >= 0 && token.indexOf('.', dot + 1) >= 0);
  if (!jwtShaped) return EVERY_SCOPE;
  const payload = jwtPayload(token);
  if (typeof payload === 'string') return { unreadable: payload };
  const claims = (['scope', 'scp'] as const).filter((name) => Object.hasOwn(payload, name));
  if (claims.length === 0) return EVERY_SCOPE;
  const held = new Set<string>();
  for (const name of claims) {
    const read = claimScopes(name, payload[name]);
    if (typeof read === 'string') return { unreadable: read };
    for (const scope of read) held.add(scope);
  }
  return { scopes: held };
}

/** The alternatives of an operation's `security` (each a list of scopes that must all be held). */
export type ScopeRequirements = readonly (readonly string[])[];

const requirementsRead = new WeakMap<object, ScopeRequirements>();

/** An operation's `security` as scope alternatives (read once per operation object). */
export function requirementsOf(security: unknown): ScopeRequirements {
  if (!Array.isArray(security)) return [];
  const known = requirementsRead.get(security);
  if (known) return known;
  const read = readRequirements(security);
  requirementsRead.set(security, read);
  return read;
}

function readRequirements(security: unknown[]): ScopeRequirements {
  return security.map((requirement) =>
    Object.values(requirement ?? {})
      .flat()
      .map(String),
  );
}

/**
 * The 403 refusal (problem body and headers) for a bearer token lacking the operation's scopes, or
 * `undefined` when it may call it (it holds one alternative whole, carries none (a plain
 * token), or the operation requires none). A token whose scopes cannot be read holds none.
 */
export function insufficientScope(
  token: string,
  requirements: ScopeRequirements,
  context: { operation: string; version: string },
): (Refusal & { headers: Record<string, string> }) | undefined {
  if (requirements.length === 0) return undefined;
  const read = scopesOfToken(token);
  if ('all' in read) return undefined;
  const held = 'scopes' in read ? read.scopes : new Set<string>();
  if (requirements.some((scopes) => scopes.every((scope) => held.has(scope)))) return undefined;
  const wanted = requirements.map((scopes) => scopes.join(' ')).filter(Boolean);
  const [first = ''] = wanted;
  const alternatives = wanted.length > 1 ? ` (or ${wanted.slice(1).join(', or ')})` : '';
  // An unreadable claim holds no scope: the refusal names why it could not be read.
  const holds = 'unreadable' in read ? `no scope (${read.unreadable})` : [...held].join(', ') || 'no scope';
  const message =
    'unreadable' in read
      ? `The token's scopes cannot be read (${read.unreadable}); it needs the scope ${first}${alternatives}`
      : `The token lacks the scope ${first}${alternatives}`;
  const violation = {
    field: 'header.Authorization',
    rule: 'unreadable' in read ? 'scope-claim' : 'scope',
    message,
    location: ['header', 'Authorization'],
  };
  const detail = `${context.operation} needs the scope ${first}${alternatives}; the token holds ${holds}.`;
  return {
    ...refusal('insufficientScope', detail, [violation], { ...context, required_scopes: wanted }),
    headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${first}"` },
  };
}
