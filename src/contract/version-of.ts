/**
 * Which API version serves an operation, from the generated operation table: an operation's default
 * version is the first (newest) version that serves it, as the version header's `default` says in
 * every bundle. The client, the router (./router.ts) and the docs all ask here.
 */
import { type ApiVersion, OPERATIONS } from './operations.generated.ts';

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
