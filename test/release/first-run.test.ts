// A clean first run (issue #20): the project's own configuration makes `npm ci` and `npm test` print
// no deprecation and no allow-scripts warning. npm 11 blocks dependency install scripts unless
// package.json's `allowScripts` reviews them (none is needed: esbuild and msw work without theirs,
// @scarf/scarf and es5-ext only report); Biome's configuration uses no deprecated field.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { runProcess } from '../helpers/process.ts';

const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));

it('every installed package with an install script is reviewed in allowScripts', async () => {
  const run = await runProcess('npm', ['install-scripts', 'ls'], { cwd: ROOT, env: npmEnv });
  expect(run.stdout + run.stderr).toContain('No packages with unreviewed install scripts.');
  const { allowScripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  expect(allowScripts).toEqual({ esbuild: false, msw: false, '@scarf/scarf': false, 'es5-ext': false });
});

it('biome reads its configuration without a deprecation notice', async () => {
  const biome = join(ROOT, 'node_modules', '.bin', 'biome');
  const run = await runProcess(biome, ['check', 'biome.json'], { cwd: ROOT });
  expect(run.stdout + run.stderr).not.toMatch(/deprecat/i);
  expect(run.code).toBe(0);
});
