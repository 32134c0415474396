// The committed generated/ files equal a fresh build: CI fails on drift, naming the stale file.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

let fresh: string;

beforeAll(async () => {
  fresh = await mkdtemp(join(tmpdir(), 'contract-build-'));
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', fresh], { cwd: ROOT });
}, 120_000);

afterAll(() => rm(fresh, { recursive: true, force: true }));

describe.each(['openapi', 'types'])('generated/%s', (folder) => {
  it('equals a fresh `npm run build`', async () => {
    const built = (await readdir(join(fresh, folder))).sort();
    const committed = (await readdir(join(ROOT, 'generated', folder))).sort();
    expect(committed, `generated/${folder} holds other files than a build makes: run npm run build`).toEqual(built);
    for (const file of built) {
      const [want, have] = await Promise.all([
        readFile(join(fresh, folder, file), 'utf8'),
        readFile(join(ROOT, 'generated', folder, file), 'utf8'),
      ]);
      expect(have === want, `generated/${folder}/${file} is stale: run \`npm run build\` and commit it`).toBe(true);
    }
  });
});
