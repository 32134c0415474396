// src/contract/package.ts: what `store-admin-contract --version` prints, and the release
// hygiene around it (a changelog entry for the package version and a changelog per API version).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPackageJson, formatVersion, packageInfo, VERSIONS } from '../../src/contract/index.ts';
import { ROOT } from '../helpers/bundles.ts';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

describe('packageInfo', () => {
  it('reads the version from package.json and the API versions from versions.ts', () => {
    expect(packageInfo()).toEqual({ name: '@store-admin/contract', version: manifest.version, apiVersions: VERSIONS });
  });

  it('formats the --version line', () => {
    expect(formatVersion({ name: '@store-admin/contract', version: '1.2.3', apiVersions: ['unstable'] })).toBe(
      '@store-admin/contract 1.2.3 (API versions: unstable)',
    );
    expect(formatVersion()).toBe(`@store-admin/contract ${manifest.version} (API versions: ${VERSIONS.join(', ')})`);
  });

  describe('in another layout', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'package-info-'));
      await mkdir(join(dir, 'pkg', 'dist', 'bin'), { recursive: true });
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'some-monorepo', version: '9.9.9' }));
      await writeFile(
        join(dir, 'pkg', 'package.json'),
        JSON.stringify({ name: '@store-admin/contract', version: '2.0.0-rc.1' }),
      );
      await mkdir(join(dir, 'bad', 'bin'), { recursive: true });
      await writeFile(
        join(dir, 'bad', 'package.json'),
        JSON.stringify({ name: '@store-admin/contract', version: 'latest' }),
      );
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('walks up to its own package.json, skipping other packages', () => {
      expect(findPackageJson(join(dir, 'pkg', 'dist', 'bin'))).toBe(join(dir, 'pkg', 'package.json'));
      expect(packageInfo(join(dir, 'pkg', 'dist', 'bin')).version).toBe('2.0.0-rc.1');
    });

    it('fails when there is none, or when the version is not semver', () => {
      expect(() => findPackageJson(dir)).toThrow(/no package.json of @store-admin\/contract/);
      expect(() => packageInfo(join(dir, 'bad', 'bin'))).toThrow(/"latest" is not semver/);
    });
  });
});

describe('changelogs', () => {
  it('CHANGELOG.md has an entry for the package version', () => {
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(new RegExp(`^## \\[${manifest.version.replaceAll('.', '\\.')}\\]`, 'm'));
  });

  it.each(VERSIONS)('openapi/changelogs/%s.md exists and names the package version', (version) => {
    const file = join(ROOT, 'openapi', 'changelogs', `${version}.md`);
    expect(existsSync(file), `${file} is missing`).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(new RegExp(`^# API version ${version}`, 'm'));
    expect(text).toMatch(/^## Package \d+\.\d+\.\d+/m);
  });
});
