/**
 * The staging recording the contract learned from, read where CI lays it out: `shared/recordings/`
 * beside the checkout (its README). A clone without it (a user's `git clone` anywhere) skips the
 * suites that read it, each saying so, instead of failing on a missing file; CI sets
 * SHARED_RECORDING_REQUIRED=1 (.ci/run), so there a missing recording fails them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_RECORDING = fileURLToPath(
  new URL('../../../shared/recordings/staging-2026-11-25.json', import.meta.url),
);

/** True when the suites reading the recording are skipped (absent, and not required). */
export const withoutSharedRecording = !existsSync(SHARED_RECORDING) && process.env.SHARED_RECORDING_REQUIRED !== '1';
