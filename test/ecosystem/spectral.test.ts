/**
 * Spectral as a downstream CI runs it: `spectral lint` with the committed `.spectral.yaml`
 * (`spectral:oas`, two rules off with their reasons) on every published bundle, JSON and YAML,
 * reports nothing at all. A control lints a doctored bundle (an array without `items`, the error
 * the bundles had before issue #20) and must get Spectral's `array-items` error.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { VERSIONS } from '../../src/contract/index.ts';
import { type Run, runProcess } from '../helpers/process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SPECTRAL = join(ROOT, 'node_modules', '.bin', 'spectral');
const BUNDLES = VERSIONS.flatMap((v) => [`generated/openapi/${v}.json`, `generated/openapi/${v}.yaml`]);

interface Finding {
  code: string;
  severity: number;
  source: string;
  path: string[];
}

const lint = (files: string[]): Promise<Run> =>
  runProcess(SPECTRAL, ['lint', ...files, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'], {
    cwd: ROOT,
  });
const findings = (run: Run): Finding[] => JSON.parse(run.stdout || '[]');

let tmp = '';
let published: Run;
let doctored: Run;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'store-admin-spectral-'));
  const bundle = JSON.parse(await readFile(join(ROOT, 'generated', 'openapi', 'unstable.json'), 'utf8'));
  bundle.components.schemas.Listed = { type: ['array', 'null'], description: 'An array without items.' };
  const file = join(tmp, 'doctored.json');
  await writeFile(file, JSON.stringify(bundle));
  [published, doctored] = await Promise.all([lint(BUNDLES), lint([file])]);
}, 120_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

it('reports no error, warning, info or hint on any bundle, JSON or YAML', () => {
  expect(published.stderr).toBe('');
  expect(findings(published).map((f) => `${f.source}: ${f.code} at ${f.path.join('.')}`)).toEqual([]);
  expect(published.code).toBe(0);
});

it('extends spectral:oas and turns off only the two rules that do not fit, each with its reason', async () => {
  const text = await readFile(join(ROOT, '.spectral.yaml'), 'utf8');
  const ruleset = parse(text);
  expect(ruleset.extends).toEqual(['spectral:oas']);
  expect(ruleset.rules).toEqual({ 'path-keys-no-trailing-slash': 'off', 'info-contact': 'off' });
  for (const rule of Object.keys(ruleset.rules))
    expect(text).toMatch(new RegExp(`# [^\\n]+\\n(#[^\\n]*\\n)*\\s*${rule}`));
});

it("control: an array without items gets Spectral's array-items error", () => {
  const errors = findings(doctored).filter((f) => f.severity === 0);
  expect(errors.map((f) => `${f.code} ${f.path.join('.')}`)).toEqual(['array-items components.schemas.Listed']);
  expect(doctored.code).not.toBe(0);
});
