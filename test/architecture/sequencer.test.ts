// The test order (test/setup/sequencer.ts) names real files, and starts the heaviest first whatever
// vitest's results cache holds.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import HeavyFirstSequencer, { WAITERS, WEIGHTS } from '../setup/sequencer.ts';

const ROOT = join(import.meta.dirname, '..', '..');

it('weighs and names as waiters only files that exist', () => {
  expect([...Object.keys(WEIGHTS), ...WAITERS].filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
});

it('starts test/package first, then the waiters in their order, then the other weighed files by weight, then the rest by size', async () => {
  const spec = (path: string) =>
    ({ moduleId: join(ROOT, path), project: { config: { root: ROOT } } }) as unknown as TestSpecification;
  const light = ['test/architecture/sequencer.test.ts', 'test/mock/units.test.ts'];
  const waiters = [WAITERS[1], WAITERS[0]] as string[];
  const files = [
    light[0],
    waiters[0],
    'test/package/package.test.ts',
    light[1],
    waiters[1],
    'test/docs/browser.test.ts',
  ] as string[];
  // The context (and its results cache) is never read.
  const sorted = await new HeavyFirstSequencer(undefined as never).sort(files.map(spec));
  const bySize = [...light].sort((a, b) => statSync(join(ROOT, b)).size - statSync(join(ROOT, a)).size);
  expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
    'test/package/package.test.ts',
    WAITERS[0],
    WAITERS[1],
    'test/docs/browser.test.ts',
    ...bySize,
  ]);
});
