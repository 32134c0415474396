/**
 * Routes a request to one API version by its version header (VERSION_HEADER), as the real API does:
 * all versions share one port, and the header (not the path) picks the version.
 *
 * - header present and listed for the endpoint → that version;
 * - header absent (or empty)                   → the endpoint's default: `versionOf` (the contract's
 *                                                operation table), whatever order the entries come in;
 * - header present but not listed              → `unsupported-version` with the allowed values;
 * - path known but not for this method         → `method-not-allowed` with the allowed methods;
 * - path unknown                               → `not-found` (with a suggestion when only the
 *                                                trailing slash is missing).
 *
 * Pure: no HTTP, no Prism, so it is unit-tested on its own.
 */
import { versionRank, versionsOf } from './version-of.ts';

// The header's name is read from the bundles at build time (openapi/components/parameters).

export interface RouteEntry<T> {
  /** Lower-case HTTP method. */
  method: string;
  /** Path template, e.g. `/tickets/{id}/`. */
  path: string;
  version: string;
  target: T;
}

export type RouteResult<T> =
  | { kind: 'matched'; version: string; path: string; target: T }
  | { kind: 'unsupported-version'; received: string; allowed: string[]; method: string; path: string }
  | { kind: 'method-not-allowed'; allow: string[]; path: string }
  | { kind: 'not-found'; suggestion?: string };

interface CompiledPath<T> {
  path: string;
  pattern: RegExp;
  /** Number of `{param}` segments: fewer means more specific, tried first. */
  params: number;
  /** method → version → target, versions kept in {@link VERSIONS} order. */
  methods: Map<string, Map<string, T>>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/tickets/{id}/` → `^/tickets/[^/]+/$` (with `capture`, each parameter is a group). */
export function templateToRegExp(template: string, capture = false): RegExp {
  const source = template
    .split(/(\{[^}/]+\})/)
    .map((part) => (/^\{[^}/]+\}$/.test(part) ? (capture ? '([^/]+)' : '[^/]+') : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The parameter names of a path template, in order (`/orders/{id}/lines/{line}/` → `id`, `line`). */
export function pathParameterNames(template: string): string[] {
  return [...template.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1] as string);
}

/** A path's first segment (`tickets` of `/tickets/7/`). */
const firstSegment = (path: string) => {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
};

/**
 * The path matching `pathname`, most specific first: only the templates whose first segment is that
 * literal (or a parameter) are tried, in the order of `paths` (fewer parameters first).
 */
function indexPaths<T>(paths: CompiledPath<T>[]): (pathname: string) => CompiledPath<T> | undefined {
  const literal = (p: CompiledPath<T>) => !firstSegment(p.path).includes('{');
  const anyFirst = paths.filter((p) => !literal(p));
  const byFirst = new Map<string, CompiledPath<T>[]>();
  for (const p of paths.filter(literal)) byFirst.set(firstSegment(p.path), []);
  for (const [segment, list] of byFirst)
    list.push(...paths.filter((p) => !literal(p) || firstSegment(p.path) === segment));
  return (pathname) => (byFirst.get(firstSegment(pathname)) ?? anyFirst).find((p) => p.pattern.test(pathname));
}

export interface Router<T> {
  resolve(method: string, pathname: string, versionHeader: string | undefined): RouteResult<T>;
  /** Versions served, in order. */
  readonly versions: readonly string[];
}

/**
 * The version a request without the header gets: the operation's default from the contract's table
 * (`versionOf`) when it is served here, else the first served (a partial or foreign set of bundles).
 */
function defaultOf<T>(method: string, path: string, byVersion: Map<string, T>): string {
  const preferred = versionsOf(method, path)?.find((v) => byVersion.has(v));
  return preferred ?? (byVersion.keys().next().value as string);
}

/** The entries by path template (fewest parameters first), each method's targets by version, oldest first. */
function compilePaths<T>(entries: readonly RouteEntry<T>[]): CompiledPath<T>[] {
  const byPath = new Map<string, CompiledPath<T>>();
  for (const entry of [...entries].sort((a, b) => versionRank(a.version) - versionRank(b.version))) {
    let compiled = byPath.get(entry.path);
    if (!compiled) {
      compiled = {
        path: entry.path,
        pattern: templateToRegExp(entry.path),
        params: (entry.path.match(/\{/g) ?? []).length,
        methods: new Map(),
      };
      byPath.set(entry.path, compiled);
    }
    const method = entry.method.toLowerCase();
    let versions = compiled.methods.get(method);
    if (!versions) {
      versions = new Map();
      compiled.methods.set(method, versions);
    }
    versions.set(entry.version, entry.target);
  }
  return [...byPath.values()].sort((a, b) => a.params - b.params);
}

/** The methods as servers hand them over, lower-cased once (a string made per request is hashed per look-up). */
const LOWER_METHODS = new Map(
  ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((method) => [method, method.toLowerCase()]),
);

export function createRouter<T>(entries: readonly RouteEntry<T>[]): Router<T> {
  const paths = compilePaths(entries);
  const versions = [...new Set(entries.map((e) => e.version))].sort((a, b) => versionRank(a) - versionRank(b));
  const find = indexPaths(paths);

  return {
    versions,
    resolve(rawMethod, pathname, versionHeader) {
      const method = LOWER_METHODS.get(rawMethod) ?? rawMethod.toLowerCase();
      const compiled = find(pathname);
      if (!compiled) {
        const alternative = pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`;
        return find(alternative) ? { kind: 'not-found', suggestion: alternative } : { kind: 'not-found' };
      }
      const byVersion = compiled.methods.get(method);
      if (!byVersion) {
        return {
          kind: 'method-not-allowed',
          allow: [...compiled.methods.keys()].map((m) => m.toUpperCase()).sort(),
          path: compiled.path,
        };
      }
      const requested = versionHeader?.trim();
      if (!requested) {
        const version = defaultOf(method, compiled.path, byVersion);
        return { kind: 'matched', version, path: compiled.path, target: byVersion.get(version) as T };
      }
      const target = byVersion.get(requested);
      if (target === undefined) {
        return {
          kind: 'unsupported-version',
          received: requested,
          allowed: [...byVersion.keys()],
          method,
          path: compiled.path,
        };
      }
      return { kind: 'matched', version: requested, path: compiled.path, target };
    },
  };
}
