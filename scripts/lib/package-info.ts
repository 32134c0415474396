/**
 * What `store-admin-contract --version` prints: the npm package version (semver, package.json)
 * and the API versions the package carries (scripts/lib/versions.ts). package.json is found by
 * walking up from this module, so the function keeps working once the bin is built into another
 * folder of the package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiVersion, VERSIONS } from './versions.ts';

export const PACKAGE_NAME = '@store-admin/contract';

export interface PackageInfo {
  name: string;
  /** The package's semver version, e.g. `0.1.0`. */
  version: string;
  /** The API versions described by the package's bundles, newest first. */
  apiVersions: readonly ApiVersion[];
}

/** Finds this package's package.json at `from` or above (a folder or a file path). */
export function findPackageJson(from: string = fileURLToPath(import.meta.url)): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const { name } = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (name === PACKAGE_NAME) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${PACKAGE_NAME} at or above ${from}`);
    dir = parent;
  }
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The package version and API versions; `from` is where to start looking for package.json. */
export function packageInfo(from?: string): PackageInfo {
  const file = findPackageJson(from);
  const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version?: string };
  if (!version || !SEMVER.test(version)) throw new Error(`${file}: version ${JSON.stringify(version)} is not semver`);
  return { name, version, apiVersions: VERSIONS };
}

/** The `--version` line: `@store-admin/contract 0.1.0 (API versions: 2024-04-01, 2023-02-10, unstable)`. */
export function formatVersion(info: PackageInfo = packageInfo()): string {
  return `${info.name} ${info.version} (API versions: ${info.apiVersions.join(', ')})`;
}
