/**
 * The code generators of the ecosystem on the published bundles (`generated/openapi/<version>.json`,
 * every API version), as a downstream repo runs them: orval (fetch client and MSW mocks),
 * @hey-api/openapi-ts (fetch client) and Kubb (fetch client, faker and MSW plugins). Each must
 * generate with no error and no warning; all their output, with a consumer of it
 * (consumer/calls.ts), type-checks under `strict` in one tsc run; each generated client makes one
 * call per version against the mock (in-process, port 0); the generated MSW mocks answer a list
 * with a `results` array. A control proves a tool's warning is caught. Lean: one temp dir, one
 * process per tool (in parallel; orval's also runs the control), one tsc; docs/ecosystem.md says
 * what each tool needs.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSIONS } from '../../src/contract/index.ts';
import { type MockServer, startMock } from '../../src/mock/index.ts';
import { bundled, type Run, runProcess } from '../helpers/process.ts';
import { GENERATED_CODE_OPTIONS, problemsOf } from './checks.ts';
import type { Tool, ToolReport } from './generate.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLES = join(ROOT, 'generated', 'openapi');
const TOOLS: Tool[] = ['orval', 'hey-api', 'kubb'];

/** Runs test/ecosystem/generate.ts for one tool; its last stdout line is the report. */
async function generate(tool: Tool, bundles: string, out: string, versions: readonly string[], baseUrl: string) {
  // Bundled for the run (test/setup/cli.ts): tsx's hook per module cost Kubb's run 1.4 s of CPU.
  const args = [bundled('test/ecosystem/generate.ts'), tool, bundles, out, versions.join(','), baseUrl];
  const run = await runProcess(process.execPath, args, { cwd: ROOT, timeoutMs: 120_000 });
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.code !== 0 || !last.startsWith('{'))
    throw new Error(`${tool} exited ${run.code}\n${run.stdout}${run.stderr}`);
  return JSON.parse(last) as Record<string, ToolReport>;
}

let out = '';
let mock: MockServer;
let reports: Record<Tool, Record<string, ToolReport>>;
let control: Record<string, ToolReport>;
let typecheck: Promise<Run>;

beforeAll(async () => {
  await mkdir(join(ROOT, '.tmp'), { recursive: true });
  // Inside the repo, so that the generated code resolves msw, @faker-js/faker from node_modules.
  out = await mkdtemp(join(ROOT, '.tmp', 'ecosystem-'));
  mock = await startMock({ port: 0 });
  // Control: the server variable's own description, as before issue #20, makes orval warn.
  const doctored = JSON.parse(await readFile(join(BUNDLES, 'unstable.json'), 'utf8'));
  doctored.servers[0].variables.base_url.description = 'The root.';
  await mkdir(join(out, 'doctored'));
  await writeFile(join(out, 'doctored', 'unstable.json'), JSON.stringify(doctored));
  // The control runs in orval's own process, after the real bundles (a version may be a path: its
  // output lands beside it, outside what tsc checks): one process and one orval load fewer.
  const doctoredBundle = join(out, 'doctored', 'unstable');
  const versionsOf = (tool: Tool) => (tool === 'orval' ? [...VERSIONS, doctoredBundle] : VERSIONS);
  const [orval, heyApi, kubb] = await Promise.all(
    TOOLS.map((tool) => generate(tool, BUNDLES, out, versionsOf(tool), mock.url)),
  );
  reports = { orval, 'hey-api': heyApi, kubb } as Record<Tool, Record<string, ToolReport>>;
  control = { unstable: orval?.[doctoredBundle] } as Record<string, ToolReport>;
  await writeFile(join(out, 'calls.ts'), await readFile(join(ROOT, 'test', 'ecosystem', 'consumer', 'calls.ts')));
  const tsconfig = {
    compilerOptions: { ...GENERATED_CODE_OPTIONS, allowImportingTsExtensions: true },
    include: ['calls.ts', ...TOOLS.map((tool) => `${tool}/**/*.ts`), ...TOOLS.map((tool) => `${tool}/**/.kubb/*.ts`)],
  };
  await writeFile(join(out, 'tsconfig.json'), JSON.stringify(tsconfig));
  // Started now, awaited by its test: the calls below run meanwhile. TypeScript 7 (the TypeScript
  // `npm i typescript` gives a downstream repo today; ~1 s of CPU where 5.9 took ~6).
  const tsc = join(ROOT, 'node_modules', 'typescript-7', 'bin', 'tsc');
  typecheck = runProcess(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')], { cwd: out });
}, 180_000);

afterAll(async () => {
  await typecheck?.catch(() => undefined);
  await mock?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

describe.each(TOOLS)('%s', (tool) => {
  it.each(VERSIONS)('generates from the %s bundle with no error and no warning', (version) => {
    const report = reports[tool][version];
    expect(report, `no report for ${version}`).toBeDefined();
    expect(problemsOf(report)).toEqual([]);
  });

  // The downstream app (consumer/calls.ts) calls the versions it was written for; a version added
  // later is still generated and type-checked above, and gets a call when the app wants one.
  it('its client calls the mock in each version the downstream app calls', async () => {
    const { calls } = await import(join(out, 'calls.ts'));
    const called = Object.keys(calls[tool]);
    for (const version of ['2024-04-01', '2023-02-10', 'unstable']) expect(called).toContain(version);
    for (const version of called) {
      expect(VERSIONS, version).toContain(version);
      const { status, body } = await calls[tool][version](mock.url);
      if (status !== undefined) expect(status, version).toBe(200);
      if (version === 'unstable') expect(body).toMatchObject({ id: 1 });
      else expect(body.results.length, version).toBeGreaterThan(0);
      // The older Subscription shape: each line carries its product (2023-02-10).
      if (version === '2023-02-10') expect(body.results[0].lines[0].product).toBeTypeOf('object');
    }
  });
});

describe.each(['orval', 'kubb'] as const)('the MSW mocks of %s', (tool) => {
  it.each(['2024-04-01', '2023-02-10'] as const)('answer the %s list with a results array', async (version) => {
    const { listFromMsw } = await import(join(out, 'calls.ts'));
    const { status, body } = await listFromMsw(tool, version);
    expect(status).toBe(200);
    expect(Array.isArray(body.results)).toBe(true);
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results[0].id).toBeTypeOf('number');
  });
});

it('type-checks every generated file and the consumer under strict, in one tsc run', async () => {
  const result = await typecheck;
  expect(result.stdout + result.stderr).toBe('');
  expect(result.code).toBe(0);
}, 120_000);

it('catches a warning: orval on a bundle whose server variable has a description', () => {
  expect(problemsOf(control.unstable)).not.toEqual([]);
  expect(control.unstable?.lines.join('\n')).toMatch(/base_url must NOT have unevaluated properties/);
});
