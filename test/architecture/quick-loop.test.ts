/**
 * The quick loop (issue #29): `npm run test:quick` leaves out the tarball suite (`test/package`), the
 * downstream tools' suites (`test/ecosystem`: Spectral, orval, @hey-api/openapi-ts and Kubb on the
 * bundles, which change only with `openapi/`) and the suites that are a Chromium page from start to
 * end; `npm test` (the README's command, CI's) stays complete. A file renamed or a new browser suite
 * fails here, not silently in the loop.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
const excluded = [...(scripts['test:quick'] ?? '').matchAll(/--exclude '?([^'\s]+)'?/g)].map((m) => m[1] as string);

/** Test files that drive Chromium (test/helpers/browser.ts) but also check the wire without it. */
const MIXED = ['test/mock/cors.test.ts'];

const testFiles = (readdirSync(join(ROOT, 'test'), { recursive: true }) as string[])
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/${f.replaceAll('\\', '/')}`);

describe('npm run test:quick', () => {
  it('runs Biome and vitest, as npm test does, with exclusions only', () => {
    expect(scripts.test).toBe('biome check . && vitest run');
    expect(scripts['test:quick']?.startsWith('biome check . && vitest run --exclude')).toBe(true);
  });

  it('leaves out test/package, test/ecosystem and every browser suite, each named by a path that exists', () => {
    for (const glob of excluded) expect(existsSync(join(ROOT, glob.replace(/\/\*\*$/, '')))).toBe(true);
    expect(excluded).toContain('test/package/**');
    expect(excluded).toContain('test/ecosystem/**');
    const browserSuites = testFiles.filter(
      (f) =>
        !f.startsWith('test/package/') &&
        !f.startsWith('test/ecosystem/') &&
        /import \{[^}]*\blaunchBrowser\b[^}]*\} from/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(browserSuites.filter((f) => !MIXED.includes(f)).sort()).toEqual(
      excluded.filter((g) => !g.endsWith('/**')).sort(),
    );
  });
});
