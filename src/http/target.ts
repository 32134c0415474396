/**
 * The request target (`/path?query`, RFC 9112 §3.2) read as a path and a query, for every server of
 * the package: the mock's engine, `--static` and the proxy.
 */

/**
 * A path of plain segments (no dot segment, escape, backslash or character the URL parser would
 * encode) and a query of printable ASCII without a fragment or space: read as they are, which is what
 * WHATWG URL parsing yields for them. Anything else goes through `new URL`.
 */
const SEGMENT = "[A-Za-z0-9_~,:@!$&'()*+;=-]+(?:\\.+[A-Za-z0-9_~,:@!$&'()*+;=-]+)*";
// Segments separated by one slash each: no way to split a run of characters twice (no backtracking).
const PLAIN_PATH = new RegExp(`^/(?:${SEGMENT}(?:/${SEGMENT})*/?)?$`);
// Printable ASCII but space and `#`.
const PLAIN_QUERY = /^[!-"$-~]*$/;

/** The path and query of an origin-form target, as `new URL` reads them (a fast path for plain ones). */
export function parseTarget(target: string): { pathname: string; searchParams: URLSearchParams } {
  const mark = target.indexOf('?');
  const path = mark < 0 ? target : target.slice(0, mark);
  // With its `?`, which URLSearchParams drops: a query starting with another `?` keeps that one.
  const query = mark < 0 ? '' : target.slice(mark);
  if (PLAIN_PATH.test(path) && PLAIN_QUERY.test(query))
    return { pathname: path, searchParams: new URLSearchParams(query) };
  const url = new URL(`http://mock.invalid${target.startsWith('/') ? target : `/${target}`}`);
  return { pathname: url.pathname, searchParams: url.searchParams };
}

/** False for a path with a malformed percent-escape (`/tickets/%E0/`): refused (400, rule `uri`), never routed. */
export function isDecodablePath(pathname: string): boolean {
  // Only an escape can be malformed: most paths have none and skip the decoding.
  if (!pathname.includes('%')) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}
