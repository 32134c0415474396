// The committed generated/ files and the operation table equal a fresh build: CI fails on drift,
// naming the stale file.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { expectCommittedEqualsFresh } from '../helpers/freshness.ts';
import { bundled } from '../helpers/process.ts';

let fresh: string;

beforeAll(async () => {
  fresh = await mkdtemp(join(tmpdir(), 'contract-build-'));
  // The build as the suites run it (bundled for the run: test/setup/cli.ts), the same source.
  await promisify(execFile)(process.execPath, [bundled('scripts/build.ts'), '--out', fresh], { cwd: ROOT });
}, 120_000);

afterAll(() => rm(fresh, { recursive: true, force: true }));

describe.each(['openapi', 'types'])('generated/%s', (folder) => {
  it('equals a fresh `npm run build`', () =>
    expectCommittedEqualsFresh(join(fresh, folder), `generated/${folder}`, 'npm run build'));
});

it.each([
  ['operations.generated.ts', 'src/contract/operations.generated.ts'],
  ['bundles.generated.ts', 'src/msw/bundles.generated.ts'],
  ['namespaces.generated.ts', 'src/client/namespaces.generated.ts'],
])('%s: the committed %s equals a fresh `npm run build`', async (built, committed) => {
  const [want, got] = await Promise.all([
    readFile(join(fresh, built), 'utf8'),
    readFile(join(ROOT, committed), 'utf8'),
  ]);
  expect(got === want, `${committed} is stale: run \`npm run build\` and commit it`).toBe(true);
});
