/**
 * Which API version a request carries. Everything here is derived from the bundles at build time
 * (generated/types/index.ts): the client holds no copy of spec §9.
 */
import { type ApiVersion, OPERATIONS, VERSION_HEADER, VERSIONS } from '../generated/types/index.js';

export { type ApiVersion, OPERATIONS, VERSION_HEADER, VERSIONS };

/**
 * The version header value of `method path` (`path` as written in the spec, e.g. `/tickets/{id}/`):
 * `version` when given and it serves the operation, else the operation's default version.
 * Throws a TypeError for an unknown operation or a version that does not serve it.
 */
export function versionOf(method: string, path: string, version?: ApiVersion): ApiVersion {
  const operation = `${method.toUpperCase()} ${path}`;
  const served = Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] : undefined;
  if (!served?.length) throw new TypeError(`${operation} is not an operation of the store admin API`);
  if (version === undefined) return served[0] as ApiVersion;
  if (!served.includes(version)) {
    throw new TypeError(`${operation} is not served by API version ${version} (served by ${served.join(', ')})`);
  }
  return version;
}
