// The whole repository type-checks under `strict` (`tsc -p .`: src, scripts, tests, and the type tests
// *.test-d.ts, whose failing `expectTypeOf` or stale `@ts-expect-error` fails it). Run as a vitest file
// so that its ~15 s of CPU overlaps the other suites instead of running before them.
//
// --incremental, its state in node_modules/.cache (as vitest's and vite's): a second run re-checks
// only the files that changed and what depends on them, and still reports every error, those of
// unchanged files from the saved state (~20 -> ~6 s of CPU when little changed). A fresh clone (CI)
// has no state and checks everything.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runProcess } from '../helpers/process.ts';

const ROOT = join(import.meta.dirname, '..', '..');

it('tsc -p . reports no error', { timeout: 180_000 }, async () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const state = join(ROOT, 'node_modules', '.cache', 'tsc', 'tsconfig.tsbuildinfo');
  const run = await runProcess(process.execPath, [tsc, '-p', '.', '--incremental', '--tsBuildInfoFile', state], {
    cwd: ROOT,
  });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.code).toBe(0);
});
