// The order vitest starts the test files in: the same on every machine, longest first. vitest's own
// order comes from its results cache (node_modules/.vite: longest first); a fresh clone (CI) has no
// cache and falls back to file size, which started test/package (a third of the run) late and left
// one worker idle at the end. Longest first on two workers: test/package runs on one while the
// other works through the rest, and the short files fill both workers at the end. The files that
// mostly wait (WAITERS) go first on the other worker, while test/package keeps both cores busy.
//
// WEIGHTS are the seconds each heavy file took in the suite on an idle 2-core machine (CONTRIBUTING.md
// "Test time"); a new file that takes more than ~2.5 s belongs here, or it may start last and run
// alone. Every other file (each well under a second) follows, largest file first, then by path, so
// the order never depends on a cache.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const WEIGHTS: Readonly<Record<string, number>> = {
  'test/package/package.test.ts': 97,
  'test/docs/browser.test.ts': 45,
  // 19 s before its control shared orval's process (#29 item 6: 23.5 -> ~21 s of CPU at load ~20).
  'test/ecosystem/generators.test.ts': 17,
  // Two scratch builds since #29 item 6 (17 s of CPU at load ~19, was 28 s at load ~5): its idle
  // wall time follows its CPU (the builds run one after another).
  'test/drift/propose.test.ts': 18,
  'test/architecture/typecheck.test.ts': 4.7,
  'test/mock/cli.test.ts': 14,
  // Its compiler run (TypeScript 7, ~1.5 s since 2026-12-02) happens while vitest collects the file.
  'test/docs-samples/samples.test.ts': 1.5,
  'test/conformance/runner.test.ts': 14,
  'test/hostile/sources.test.ts': 12,
  'test/hostile/state-file.test.ts': 12,
  'test/contract/freshness.test.ts': 11,
  'test/fuzz/fuzz.test.ts': 10,
  'test/docs/reader.test.ts': 5.2,
  'test/hostile/diff.test.ts': 8,
  'test/mock/persistence.test.ts': 7,
  'test/hostile/state-compaction.test.ts': 5,
  'test/ecosystem/spectral.test.ts': 5,
  'test/contract/lint.test.ts': 5,
  'test/client/retry.test.ts': 4,
  'test/mock/recording.test.ts': 4,
  'test/mock/invariants.test.ts': 4,
  'test/diff/cli.test.ts': 4,
  'test/release/npm-scripts.test.ts': 4.5,
  'test/hostile/fuzz.test.ts': 4.5,
  'test/release/first-run.test.ts': 3.5,
  'test/mock/inspector.test.ts': 5,
  'test/mock/store.test.ts': 3.3,
  'test/mock/examples.test.ts': 3.1,
  'test/mock/eviction.test.ts': 3,
  'test/msw/browser.test.ts': 3,
  // Estimated (a Chromium page, Prism's static mock, the proxy; #27), not yet measured idle.
  'test/mock/cors.test.ts': 4,
  'test/hostile/deadline.test.ts': 4.5, // estimated: +1 child process (#31), not yet measured idle
  'test/hostile/timeouts.test.ts': 2.9,
  'test/hostile/fixtures-file.test.ts': 2.8,
  'test/mock/session.test.ts': 2.7,
  // Estimated (#30): 3.2 s of CPU beyond vitest's start at load ~15, five mocks with a state file.
  'test/mock/forks-state.test.ts': 3.5,
  'test/mock/scenarios-e2e.test.ts': 2.7,
  // Estimated (#30: one CLI process, a server, ~240 in-process requests; 6 s of CPU with vitest's
  // own ~3 s at load 14), not yet measured idle.
  'test/mock/coverage.test.ts': 3,
};

/**
 * Files that mostly wait (real timers: retries, deadlines, server timeouts; a browser rendering),
 * each measured alone on the idle machine (2026-12-02: wall minus CPU beyond vitest's own start,
 * 1.1-3.9 s each, ~20 s in all: about the suite's idle core-seconds, 17-23 s a run). They start right
 * after the heaviest file, test/package, whose installs and compilers keep both cores busy
 * meanwhile; near the end of the run, two of them side by side left a core idle (1.35-1.64 of the 2
 * cores busy over those 30 s).
 */
export const WAITERS: readonly string[] = [
  'test/client/retry.test.ts',
  'test/hostile/deadline.test.ts',
  'test/mock/inspector.test.ts',
  'test/hostile/timeouts.test.ts',
  'test/mock/scenarios-e2e.test.ts',
  'test/docs/reader.test.ts',
  'test/msw/handlers.test.ts',
  'test/proxy/proxy.test.ts',
  'test/hostile/proxy-hostile.test.ts',
];

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (spec: TestSpecification) => {
      const path = relative(spec.project.config.root, spec.moduleId).replaceAll('\\', '/');
      return { path, weight: WEIGHTS[path] ?? 0, size: statSync(spec.moduleId).size };
    };
    const keyed = files.map((spec) => ({ spec, ...key(spec) }));
    keyed.sort((a, b) => b.weight - a.weight || b.size - a.size || (a.path < b.path ? -1 : 1));
    const [heaviest, ...rest] = keyed;
    const waiting = (path: string) => WAITERS.includes(path);
    const waiters = rest
      .filter((k) => waiting(k.path))
      .sort((a, b) => WAITERS.indexOf(a.path) - WAITERS.indexOf(b.path));
    const ordered = heaviest ? [heaviest, ...waiters, ...rest.filter((k) => !waiting(k.path))] : [];
    return ordered.map(({ spec }) => spec);
  }
}
