// One vitest configuration for every suite in test/ (*.test.ts). The type tests (*.test-d.ts) are
// checked by `tsc -p .`, run as test/architecture/typecheck.test.ts (tsconfig.json includes test/):
// a failing `expectTypeOf` or a stale `@ts-expect-error` there fails the type-check.
//
// Time budget (npm test under 3 minutes on 2 cores, CONTRIBUTING.md "Test time"): one worker per
// core and one more (vitest's default leaves one core idle, so on 2 cores every file ran one after
// another; many files wait on child processes and Chromium, so a third worker fills the gaps);
// VITEST_MAX_WORKERS overrides it.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the mock once on a free port for test/mock and test/conformance (inject('mockUrl')).
    globalSetup: ['test/setup/mock.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
