// The whole repository type-checks under `strict` (src, scripts, tests, and the type tests
// *.test-d.ts, whose failing `expectTypeOf` or stale `@ts-expect-error` fails it). Run as a vitest file
// so that its CPU overlaps the other suites instead of running before them.
//
// With TypeScript 7 (the devDependency `typescript-7`, an npm alias of typescript@7.0.2: the
// TypeScript `npm i typescript` gives today, native), as `npm run typecheck` does: a cold check of
// the repository's ~1,640 files is ~3.5 s of CPU where 5.9 took 13.5-15 s (CONTRIBUTING.md, "Test
// time"). 5.9 stays the repository's `typescript`: the library openapi-typescript and the in-process
// type tests load (7 has no JavaScript API), and the compiler of dist/ (scripts/prepack.ts).
//
// --incremental, its state in node_modules/.cache (as vitest's and vite's): a second run re-checks
// only the files that changed and what depends on them, and still reports every error, those of
// unchanged files from the saved state (3.7 -> 1.3 s when nothing changed). A fresh clone (CI) has
// no state and checks everything.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runProcess } from '../helpers/process.ts';

const ROOT = join(import.meta.dirname, '..', '..');

it('tsc -p . (TypeScript 7) reports no error', { timeout: 180_000 }, async () => {
  const tsc = join(ROOT, 'node_modules', 'typescript-7', 'bin', 'tsc');
  const state = join(ROOT, 'node_modules', '.cache', 'tsc-7', 'tsconfig.tsbuildinfo');
  const run = await runProcess(process.execPath, [tsc, '-p', '.', '--incremental', '--tsBuildInfoFile', state], {
    cwd: ROOT,
  });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.code).toBe(0);
});
