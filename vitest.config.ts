// One vitest configuration for every suite in test/: runtime tests (*.test.ts) and type tests
// (*.test-d.ts, checked by tsc through vitest's typecheck mode).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the Prism mock once on a free port for test/mock and test/conformance (inject('mockUrl')).
    globalSetup: ['test/setup/mock.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Type tests compile as the strictest consumer does (tsconfig.typecheck.json adds
    // exactOptionalPropertyTypes); src/ itself is checked by `tsc -p .` with tsconfig.json.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.typecheck.json',
      ignoreSourceErrors: true,
    },
  },
});
