/**
 * Which API version serves an operation, from the generated operation table: an operation's default
 * version is the first (newest) version that serves it, as the version header's `default` says in
 * every bundle. The client, the router (./router.ts) and the docs all ask here. Likewise a schema
 * component is read from the newest version whose bundle defines it (the mock's record schemas).
 */
import type { Bundle } from './bundles.ts';
import { type ApiVersion, COMPONENTS, OPERATIONS, VERSIONS } from './operations.generated.ts';

/** A version's place in {@link VERSIONS} (an unknown one last): the order of `allowed` and `versions`. */
export const versionRank = (version: string) => {
  const index = (VERSIONS as readonly string[]).indexOf(version);
  return index === -1 ? VERSIONS.length : index;
};

/** `GET /tickets/{id}/` style key of an operation. */
export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

/** The versions serving `method path` (newest first; the first is the default), or `undefined`. */
export function versionsOf(method: string, path: string): readonly ApiVersion[] | undefined {
  const key = operationKey(method, path);
  return Object.hasOwn(OPERATIONS, key) ? OPERATIONS[key] : undefined;
}

/**
 * The version header value of `method path` (`path` as written in the spec, e.g. `/tickets/{id}/`):
 * `version` when given and it serves the operation, else the operation's default version.
 * Throws a TypeError for an unknown operation or a version that does not serve it.
 */
export function versionOf(method: string, path: string, version?: ApiVersion): ApiVersion {
  const served = versionsOf(method, path);
  const operation = operationKey(method, path);
  if (!served?.length) throw new TypeError(`${operation} is not an operation of the store admin API`);
  if (version === undefined) return served[0] as ApiVersion;
  if (!served.includes(version)) {
    throw new TypeError(`${operation} is not served by API version ${version} (served by ${served.join(', ')})`);
  }
  return version;
}

/**
 * The version schema component `name` (`#/components/schemas/<name>`) is read from: the newest
 * version whose bundle defines it. Throws a TypeError for a component no bundle defines.
 */
export function componentVersion(name: string): ApiVersion {
  const defined = Object.hasOwn(COMPONENTS, name) ? COMPONENTS[name] : undefined;
  if (!defined?.length) throw new TypeError(`${name} is not a schema component of the store admin API`);
  return defined[0] as ApiVersion;
}

/**
 * The bundle of `bundles` schema component `name` is read from: the newest (in contract version
 * order, whatever the order they come in) whose document defines it, or undefined.
 */
export function bundleDefining(bundles: readonly Bundle[], name: string): Bundle | undefined {
  const defining = bundles.filter((bundle) => Object.hasOwn(bundle.document?.components?.schemas ?? {}, name));
  return defining.sort((a, b) => versionRank(a.version) - versionRank(b.version))[0];
}
