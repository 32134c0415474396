/**
 * vitest global setup: one scratch folder per run, exported as TMPDIR before the workers start, so
 * every `tmpdir()` of the suites, of the processes they spawn (npm's installs, Chromium's profiles,
 * the mock's state files) and of the code under test lands in it; removed whole after the run, so a
 * test that forgets its own folder leaks nothing.
 *
 * On a RAM disk (/dev/shm) when the machine has one with room: the suites write up to ~0.5 GB of
 * throwaway projects at a time (test/package's installs), and on this VM's disk npm spent 4-6 s more of
 * system CPU an install (an install of test/package's `consumer`: 12-15 s of CPU on the disk, 8-9.5 s
 * on the RAM disk; CONTRIBUTING.md "Test time"). STORE_ADMIN_TEST_TMPDIR overrides where it goes.
 */
import { statfsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The RAM disk, and the free bytes it must have to be used (a run's peak: 0.45 GB on 2026-12-02). */
const RAM_DISK = '/dev/shm';
const ROOM = 1.5 * 1024 ** 3;

/** Where the run's folder goes: the override, else the RAM disk when it has room, else the system's. */
function scratchParent(): string {
  const override = process.env.STORE_ADMIN_TEST_TMPDIR;
  if (override) return override;
  try {
    const disk = statfsSync(RAM_DISK);
    if (disk.bavail * disk.bsize >= ROOM) return RAM_DISK;
  } catch {
    // No RAM disk here (not Linux, or not mounted): the system's temporary folder.
  }
  return tmpdir();
}

export default async function setup(): Promise<() => Promise<void>> {
  const scratch = await mkdtemp(join(scratchParent(), 'store-admin-test-'));
  // /tmp's own mode: a test runs the mock as nobody in a folder of its own in here
  // (test/hostile/state-file.test.ts), and mkdtemp's 0700 would stop it at the door.
  await chmod(scratch, 0o1777);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  return async () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // maxRetries: a Chromium or npm process still closing can hold a file for a moment.
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  };
}
