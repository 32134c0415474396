// The committed generated/ files equal a fresh build: CI fails on drift, naming the stale file.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { expectCommittedEqualsFresh } from '../helpers/freshness.ts';

let fresh: string;

beforeAll(async () => {
  fresh = await mkdtemp(join(tmpdir(), 'contract-build-'));
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', fresh], { cwd: ROOT });
}, 120_000);

afterAll(() => rm(fresh, { recursive: true, force: true }));

describe.each(['openapi', 'types'])('generated/%s', (folder) => {
  it('equals a fresh `npm run build`', () =>
    expectCommittedEqualsFresh(join(fresh, folder), `generated/${folder}`, 'npm run build'));
});
