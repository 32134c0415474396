/**
 * Where this package is on disk and what it is: its package.json is found by walking up from this
 * module, so the same code works from `src/` in the repo and from `dist/` once packed. The version
 * line is what `store-admin-contract --version` prints.
 */
import { nodeBuiltins } from './node.ts';
import { type ApiVersion, VERSIONS } from './operations.generated.ts';

export const PACKAGE_NAME = '@store-admin/contract';

export interface PackageInfo {
  name: string;
  /** The package's semver version, e.g. `0.1.0`. */
  version: string;
  /** The API versions described by the package's bundles, newest first. */
  apiVersions: readonly ApiVersion[];
}

/** Finds this package's package.json at `from` or above (a folder or a file path). */
export function findPackageJson(from?: string): string {
  const { fs, path, url } = nodeBuiltins();
  const start = from ?? url.fileURLToPath(import.meta.url);
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const { name } = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string };
      if (name === PACKAGE_NAME) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${PACKAGE_NAME} at or above ${start}`);
    dir = parent;
  }
}

/** The package's root folder (holding package.json, generated/, src/ or dist/). */
export const packageRoot = (): string => nodeBuiltins().path.dirname(findPackageJson());

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The package version and API versions; `from` is where to start looking for package.json. */
export function packageInfo(from?: string): PackageInfo {
  const { fs } = nodeBuiltins();
  const file = findPackageJson(from);
  const { name, version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { name: string; version?: string };
  if (!version || !SEMVER.test(version)) throw new Error(`${file}: version ${JSON.stringify(version)} is not semver`);
  return { name, version, apiVersions: VERSIONS };
}

/** The `--version` line: `@store-admin/contract 0.1.0 (API versions: 2024-04-01, 2023-02-10, unstable)`. */
export function formatVersion(info: PackageInfo = packageInfo()): string {
  return `${info.name} ${info.version} (API versions: ${info.apiVersions.join(', ')})`;
}
