// The committed reference docs equal a fresh `npm run docs` byte for byte (Redocly's output is
// deterministic for a given bundle), so CI fails when generated/docs/ lags behind the bundles.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

let fresh: string;

beforeAll(async () => {
  fresh = await mkdtemp(join(tmpdir(), 'contract-docs-'));
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/docs.ts', '--out', fresh], { cwd: ROOT });
}, 120_000);

afterAll(() => rm(fresh, { recursive: true, force: true }));

it('generated/docs equals a fresh `npm run docs`', async () => {
  const built = (await readdir(fresh)).sort();
  const committed = (await readdir(join(ROOT, 'generated', 'docs')).catch(() => [])).sort();
  expect(committed, 'generated/docs holds other files than `npm run docs` makes').toEqual(built);
  for (const file of built) {
    const [want, have] = await Promise.all([
      readFile(join(fresh, file)),
      readFile(join(ROOT, 'generated', 'docs', file)),
    ]);
    expect(want.equals(have), `generated/docs/${file} is stale: run \`npm run docs\` and commit it`).toBe(true);
  }
});
