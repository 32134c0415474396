// The whole repository type-checks under `strict` (`tsc -p .`: src, scripts, tests, and the type tests
// *.test-d.ts, whose failing `expectTypeOf` or stale `@ts-expect-error` fails it). Run as a vitest file
// so that its ~15 s of CPU overlaps the other suites instead of running before them.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runProcess } from '../helpers/process.ts';

const ROOT = join(import.meta.dirname, '..', '..');

it('tsc -p . reports no error', { timeout: 180_000 }, async () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = await runProcess(process.execPath, [tsc, '-p', '.'], { cwd: ROOT });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.code).toBe(0);
});
