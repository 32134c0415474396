/**
 * Which origin the mock writes into its page links (`next`, `previous`): the request's `Host` header
 * only when it is a host name or an IP address with an optional port, never anything a client can
 * slip in (`evil.example@attacker.test`, a path, a space); otherwise the configured origin, or the
 * address the server is bound to.
 */

/** A DNS name or IPv4 address (labels of letters, digits, hyphens), or a bracketed IPv6, then a port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/** Is `host` (a Host header value) safe to reflect in a URL? */
export function validHost(host: string | undefined): host is string {
  if (host === undefined || host.length > 255) return false;
  const match = HOST.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

/** The origin of the page links: `configured` if set, else a valid `Host`, else `bound`. */
export function linkOrigin(host: string | undefined, bound: string, configured?: string): string {
  if (configured) return configured;
  return validHost(host) ? `http://${host}` : bound;
}
