/**
 * Runs one code generator of the ecosystem on bundles, as a downstream repo would, in a process of
 * its own (test/ecosystem/generators.test.ts starts one per tool, in parallel):
 *
 *   node --import tsx test/ecosystem/generate.ts <tool> <bundlesDir> <outDir> <versions,…> [baseUrl]
 *
 * A version is the name of a bundle in <bundlesDir> (<version>.json), or the path of a bundle elsewhere
 * with its `.json` left off (its output lands beside it; the report names it by that path).
 * Everything the tool prints (console, stdout, stderr, Kubb's events) is collected per version and
 * written as the last line, JSON: `{ "<version>": { "lines": [...], "thrown": "…" | null } }`.
 * The tools' options are the ones docs/ecosystem.md shows a user. test/package/ runs a copy of this
 * file in a downstream project on Node 22 and 24, where `orval` is orval 8.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { format } from 'node:util';

export type Tool = 'orval' | 'hey-api' | 'kubb';
export interface ToolReport {
  lines: string[];
  thrown: string | null;
}

const [tool, bundlesDir, outDir, versionList, baseUrl] = process.argv.slice(2) as [
  Tool,
  string,
  string,
  string,
  string?,
];
const versions = versionList.split(',');

// Collects what the tool prints (the tools log through console and the standard streams).
let lines: string[] = [];
const collect = (...args: unknown[]) => {
  lines.push(...format(...args).split('\n'));
};
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) console[method] = collect;
const write = process.stdout.write.bind(process.stdout);
for (const stream of [process.stdout, process.stderr]) {
  stream.write = ((chunk: string | Uint8Array) => {
    collect(String(chunk).replace(/\n$/, ''));
    return true;
  }) as typeof stream.write;
}

/** The major version of the orval this script imports (the repo's 7, or a consumer's 8). */
async function orvalMajor(): Promise<number> {
  // Both majors keep their entry in dist/ beside package.json's parent (7: index.js, 8: index.mjs).
  const manifest = new URL('../package.json', import.meta.resolve('orval'));
  return Number(JSON.parse(await readFile(manifest, 'utf8')).version.split('.')[0]);
}

async function orval(input: string, out: string): Promise<void> {
  const { generate } = await import('orval');
  // orval 8 takes a list of mock generators (and refuses 7's single `mock.type` with a TypeError);
  // `inline` keeps the mocks in client.ts as orval 7 does (8.38's separate client.msw.ts in `single`
  // mode does not import the types it names, so it does not compile).
  const msw = { type: 'msw', delay: false } as const;
  const mock = (await orvalMajor()) >= 8 ? { inline: true, generators: [msw] } : msw;
  await generate({
    input: { target: input },
    output: {
      target: join(out, 'client.ts'),
      client: 'fetch',
      mode: 'single',
      mock,
      ...(baseUrl && { baseUrl }),
    },
  } as Parameters<typeof generate>[0]);
}

async function heyApi(input: string, out: string): Promise<void> {
  const { createClient } = await import('@hey-api/openapi-ts');
  // `./`-relative or absolute: a bare path is taken for a registry name.
  await createClient({ input, output: out, plugins: ['@hey-api/client-fetch'] });
}

async function kubb(input: string, out: string): Promise<void> {
  const [{ AsyncEventEmitter, build }, { pluginOas }, { pluginTs }, { pluginClient }, { pluginFaker }, { pluginMsw }] =
    await Promise.all([
      import('@kubb/core'),
      import('@kubb/plugin-oas'),
      import('@kubb/plugin-ts'),
      import('@kubb/plugin-client'),
      import('@kubb/plugin-faker'),
      import('@kubb/plugin-msw'),
    ]);
  // Kubb writes some files relative to the working directory whatever its `root` says.
  await mkdir(out, { recursive: true });
  process.chdir(out);
  const events = new AsyncEventEmitter();
  events.on('warn', (message: string, info?: string) => collect(`warning: ${message} ${info ?? ''}`));
  events.on('error', (error: Error) => collect(`error: ${error.message}`));
  const result = await build({
    config: {
      root: out,
      input: { path: input },
      output: { path: out, clean: true, barrelType: false, format: false, lint: false },
      plugins: [
        pluginOas({ validate: true }),
        pluginTs(),
        pluginClient({ client: 'fetch', bundle: true }),
        pluginFaker(),
        pluginMsw({ handlers: true, parser: 'faker', baseURL: 'http://msw.test' }),
      ],
    },
    events,
  } as Parameters<typeof build>[0]);
  for (const { plugin, error } of result.failedPlugins) collect(`error: ${plugin.name}: ${error.message}`);
}

const run = { orval, 'hey-api': heyApi, kubb }[tool];
const report: Record<string, ToolReport> = {};
for (const version of versions) {
  lines = [];
  let thrown: string | null = null;
  try {
    await run(resolve(bundlesDir, `${version}.json`), resolve(outDir, tool, version));
  } catch (error) {
    // Kubb's BuildError carries the plugins' own errors.
    const causes = ((error as { errors?: unknown[] }).errors ?? []).map((cause) => `; ${String(cause)}`);
    thrown = error instanceof Error ? `${error.name}: ${error.message}${causes.join('')}` : String(error);
  }
  report[version] = { lines: lines.filter((line) => line.trim() !== ''), thrown };
}
write(`\n${JSON.stringify(report)}\n`);
process.exit(0);
