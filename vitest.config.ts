// One vitest configuration for every suite in test/ (*.test.ts). The type tests (*.test-d.ts) are
// checked by `tsc -p .`, run as test/architecture/typecheck.test.ts (tsconfig.json includes test/):
// a failing `expectTypeOf` or a stale `@ts-expect-error` there fails the type-check.
//
// Time budget (npm test under 3 minutes on 2 cores, CONTRIBUTING.md "Test time"): one worker per
// core, and at least two (vitest's default, cores - 1, left one of 2 cores idle and ran every file
// one after another). No more than that: the suite is CPU-bound, and a third worker on 2 cores did
// not shorten it (209 s vs 212 s; again on 2026-11-28: 157 s vs 155 s, 307 s of CPU vs 288 s), so
// time is won by cutting CPU seconds. VITEST_MAX_WORKERS
// overrides it (vitest reads it).
//
// isolate: false: the files a worker runs share its module cache, so what they import (the mock,
// Prism, msw, ajv, the TypeScript compiler) loads once per worker instead of once per file: about
// 60 s of CPU less over the suite (417 -> 348 s at load ~11; a ~3 s cut in test/package came
// between the two runs), and vitest's summed import time halved (105 -> 50 s). The price: a test
// file must leave the process as it found it (restore spies, cwd and environment; close MSW
// servers and the servers it starts) and never mutate a module's shared state (a loaded bundle:
// structuredClone it first). The suite uses no vi.mock.
//
// sequence.sequencer: the files start in one fixed order, longest first (test/setup/sequencer.ts),
// whether or not vitest has its results cache (a fresh clone in CI has none).
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/setup/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A scratch TMPDIR for the run, on a RAM disk when there is one, removed after it
    // (test/setup/scratch.ts); bundles the CLI the suites spawn (test/setup/cli.ts); starts the mock
    // once on a free port for test/mock and test/conformance (inject('mockUrl')).
    globalSetup: ['test/setup/scratch.ts', 'test/setup/cli.ts', 'test/setup/mock.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: Math.max(2, availableParallelism()),
    isolate: false,
    sequence: { sequencer: HeavyFirstSequencer },
  },
});
