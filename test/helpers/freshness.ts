/** Compares a fresh build folder with its committed twin, naming the stale file and the command that fixes it. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './bundles.ts';

export async function expectCommittedEqualsFresh(fresh: string, committed: string, fix: string): Promise<void> {
  const built = (await readdir(fresh)).sort();
  const have = (await readdir(join(ROOT, committed)).catch(() => [])).sort();
  expect(have, `${committed} holds other files than a build makes: run \`${fix}\` and commit`).toEqual(built);
  for (const file of built) {
    const [want, got] = await Promise.all([readFile(join(fresh, file)), readFile(join(ROOT, committed, file))]);
    expect(want.equals(got), `${committed}/${file} is stale: run \`${fix}\` and commit it`).toBe(true);
  }
}
