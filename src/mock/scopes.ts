/**
 * Optional scope enforcement (spec §5: each operation needs the scope of §4). By default any bearer
 * token holds every scope, as Prism does. A token that carries its scopes is checked, in either form:
 *   - readable: `scopes:tickets:read,store:read` (comma- or space-separated after `scopes:`);
 *   - a JWT whose payload has `scope` (space-separated, RFC 8693/9068) or `scp` (array); the
 *     signature is not checked (a mock holds no keys).
 * A call lacking the scope gets 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"` (RFC 6750 §3.1) and a problem body naming the missing scope. Where §4 lists two scopes
 * the contract makes them alternatives (two security requirements): either one suffices.
 */
import { type Refusal, refusal } from './problems.ts';

/** The scopes a token carries, or `undefined` when it says nothing of them (then it has them all). */
export function scopesOfToken(token: string): Set<string> | undefined {
  const readable = /^scopes:(.*)$/s.exec(token);
  if (readable) return new Set((readable[1] ?? '').split(/[\s,]+/).filter(Boolean));
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const base64 = (parts[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const payload = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as {
      scope?: unknown;
      scp?: unknown;
    };
    if (typeof payload.scope === 'string') return new Set(payload.scope.split(' ').filter(Boolean));
    if (Array.isArray(payload.scp)) return new Set(payload.scp.filter((s): s is string => typeof s === 'string'));
  } catch {
    // Not a JWT after all: a plain token, holding every scope.
  }
  return undefined;
}

/** The alternatives of an operation's `security` (each a list of scopes that must all be held). */
export type ScopeRequirements = readonly (readonly string[])[];

export function requirementsOf(security: unknown): ScopeRequirements {
  if (!Array.isArray(security)) return [];
  return security.map((requirement) =>
    Object.values(requirement ?? {})
      .flat()
      .map(String),
  );
}

/**
 * The 403 refusal (problem body and headers) for a bearer token lacking the operation's scopes, or
 * `undefined` when it may call it (it holds one alternative whole, carries no scopes, or the
 * operation requires none).
 */
export function insufficientScope(
  token: string,
  requirements: ScopeRequirements,
  context: { operation: string; version: string },
): (Refusal & { headers: Record<string, string> }) | undefined {
  if (requirements.length === 0) return undefined;
  const held = scopesOfToken(token);
  if (held === undefined) return undefined;
  if (requirements.some((scopes) => scopes.every((scope) => held.has(scope)))) return undefined;
  const wanted = requirements.map((scopes) => scopes.join(' ')).filter(Boolean);
  const [first = ''] = wanted;
  const alternatives = wanted.length > 1 ? ` (or ${wanted.slice(1).join(', or ')})` : '';
  return refusal(
    'insufficientScope',
    `${context.operation} needs the scope ${first}${alternatives}; the token holds ${[...held].join(', ') || 'no scope'}.`,
    [
      {
        field: 'header.Authorization',
        rule: 'scope',
        message: `The token lacks the scope ${first}${alternatives}`,
        location: ['header', 'Authorization'],
      },
    ],
    { ...context, required_scopes: wanted },
    { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${first}"` },
  );
}
