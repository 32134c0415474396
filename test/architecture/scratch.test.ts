// The run's scratch folder (test/setup/scratch.ts): every tmpdir() of the suites is inside it, and
// its teardown removes what a test left behind.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import setup from '../setup/scratch.ts';

const RUN_TMPDIR = process.env.TMPDIR;

afterEach(() => {
  process.env.TMPDIR = RUN_TMPDIR;
  delete process.env.STORE_ADMIN_TEST_TMPDIR;
});

it('gives this worker the run’s scratch folder as its tmpdir()', () => {
  expect(basename(tmpdir())).toMatch(/^store-admin-test-/);
  expect(existsSync(tmpdir())).toBe(true);
});

it('makes a folder under the override, sets TMPDIR to it, and its teardown removes what was left and restores TMPDIR', async () => {
  const parent = join(tmpdir(), 'scratch-parent');
  mkdirSync(parent);
  process.env.STORE_ADMIN_TEST_TMPDIR = parent;
  const teardown = await setup();
  const scratch = tmpdir();
  expect(dirname(scratch)).toBe(parent);
  // As /tmp: anyone may make a folder in it (a test runs the mock as nobody), only its owner remove it.
  expect(statSync(scratch).mode & 0o7777).toBe(0o1777);
  mkdirSync(join(scratch, 'left-behind'));
  writeFileSync(join(scratch, 'left-behind', 'file'), 'x');
  await teardown();
  expect(existsSync(scratch)).toBe(false);
  expect(process.env.TMPDIR).toBe(RUN_TMPDIR);
});
