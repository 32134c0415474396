// The committed reference docs equal a fresh `npm run docs` byte for byte (Redocly's output is
// deterministic for a given bundle), so CI fails when generated/docs/ lags behind the bundles.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { expectCommittedEqualsFresh } from '../helpers/freshness.ts';

let fresh: string;

beforeAll(async () => {
  fresh = await mkdtemp(join(tmpdir(), 'contract-docs-'));
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/docs.ts', '--out', fresh], { cwd: ROOT });
}, 120_000);

afterAll(() => rm(fresh, { recursive: true, force: true }));

it('generated/docs equals a fresh `npm run docs`', () =>
  expectCommittedEqualsFresh(fresh, 'generated/docs', 'npm run docs'));
