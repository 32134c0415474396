// One vitest configuration for every suite in test/: runtime tests (*.test.ts) and type tests
// (*.test-d.ts, checked by tsc through vitest's typecheck mode).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
