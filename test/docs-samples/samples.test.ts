// Every TypeScript sample of README.md and docs/*.md compiles, the way a user of the package would
// compile it: each ```ts block becomes a module of a scratch project where `@store-admin/contract`
// resolves to this repo (its package exports mapped to the sources: `.` -> src/client, `./mock` ->
// src/mock, `./types/*` -> generated/types, `./openapi/*.json` -> generated/openapi), and the
// TypeScript compiler checks them under `"module": "esnext"` with `"moduleResolution": "bundler"`. A
// failure names the Markdown file and line. New docs pages are picked up on their own.
//
// The README's other setting, `"module": "nodenext"`, is checked on the packed tarball, where its
// resolution (the package's `exports`) is the real one: test/package type-checks every sample under
// TypeScript 5.9 and 7 with NodeNext (strict, exact optional properties), naming the Markdown file
// and line of a failing sample. A third compiler run here, on the sources, added nothing (~7 s of CPU).
//
// A block that is deliberately not TypeScript a user would write is marked ```ts nocheck; use
// `declare const token: string;` (and the like) in a sample for what it assumes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { allSamples, extractSamples, type Sample } from '../helpers/samples.ts';

const samples = allSamples();

/** The module settings checked here (nodenext: in test/package, on the tarball). */
const SETTINGS: { name: string; options: Record<string, string> }[] = [
  { name: 'esnext + bundler', options: { module: 'ESNext', moduleResolution: 'Bundler' } },
];

// The samples and the compiler's incremental state live in node_modules/.cache (as vitest's and
// test/architecture/typecheck.test.ts's do): a second run re-checks only the samples and sources that
// changed and still reports every error, those of unchanged files from the saved state. A fresh
// clone (CI) has no state and checks everything. The compiler is TypeScript 7 (the repository's
// type-check, `typescript-7`), run as a process: ~1.5 s of CPU cold where 5.9 in-process took ~10.
const scratch = join(ROOT, 'node_modules', '.cache', 'docs-samples');
rmSync(join(scratch, 'samples'), { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
// Samples are ES modules (top-level await, `import`), as in a `"type": "module"` package.
writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }\n');

/** One module per sample; returns sample file name (relative to `scratch`) -> sample. */
function writeSamples(list: Sample[], dir: string): Map<string, Sample> {
  mkdirSync(dir, { recursive: true });
  const byFile = new Map<string, Sample>();
  list.forEach((sample, i) => {
    const name = join(dir, `sample-${String(i).padStart(3, '0')}.ts`);
    // `export {}` keeps every sample a module of its own, even one without imports.
    writeFileSync(name, `${sample.code}\nexport {};\n`);
    byFile.set(relative(scratch, name), sample);
  });
  return byFile;
}

/** The project of one setting: the samples, `@store-admin/contract` mapped to this repo's sources. */
function tsconfigOf(files: string[], setting: (typeof SETTINGS)[number]): object {
  const at = (path: string) => join(ROOT, path);
  return {
    compilerOptions: {
      ...setting.options,
      target: 'ES2022',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      resolveJsonModule: true,
      // The package's sources import each other with `.ts` extensions (its build rewrites them).
      allowImportingTsExtensions: true,
      types: ['node'],
      typeRoots: [at('node_modules/@types')],
      paths: {
        '@store-admin/contract': [at('src/client/index.ts')],
        '@store-admin/contract/mock': [at('src/mock/index.ts')],
        '@store-admin/contract/msw': [at('src/msw/index.ts')],
        '@store-admin/contract/proxy': [at('src/proxy/index.ts')],
        // The samples' own dependencies, from this repo's node_modules (the samples sit in its cache).
        'msw/*': [at('node_modules/msw/lib/*/index.d.mts')],
        '@store-admin/contract/types/*': [at('generated/types/*.ts')],
        '@store-admin/contract/openapi/*': [at('generated/openapi/*')],
      },
      incremental: true,
      tsBuildInfoFile: `${setting.name.replace(/\W+/g, '-')}.tsbuildinfo`,
    },
    files,
  };
}

/** tsc's errors, one per entry (`file(line,col): error TSn: text`, with its continuation lines). */
function errorsOf(output: string): { file?: string; line: number; code: string; text: string }[] {
  const errors: { file?: string; line: number; code: string; text: string }[] = [];
  for (const line of output.split('\n')) {
    const at = /^(?:(.+?)\((\d+),\d+\): )?error TS(\d+): (.*)$/.exec(line);
    if (at) errors.push({ file: at[1], line: Number(at[2] ?? 0), code: at[3] ?? '', text: at[4] ?? '' });
    else if (line.trim() !== '' && errors.length > 0) (errors.at(-1) as { text: string }).text += `\n${line.trim()}`;
  }
  return errors;
}

/** Type-checks the samples under one module setting; one message per error, `file:line (setting): …`. */
function check(list: Sample[], setting: (typeof SETTINGS)[number], dir: string): Map<Sample, string[]> {
  const byFile = writeSamples(list, dir);
  const project = join(scratch, `tsconfig.${setting.name.replace(/\W+/g, '-')}.json`);
  writeFileSync(project, JSON.stringify(tsconfigOf([...byFile.keys()], setting), null, 2));
  const tsc = join(ROOT, 'node_modules', 'typescript-7', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  const found = new Map<Sample, string[]>(list.map((sample) => [sample, []]));
  const errors = errorsOf(`${run.stdout}${run.stderr}`);
  // A failing compiler run with no error to show (a crash): every sample reports it.
  if (run.status !== 0 && errors.length === 0) errors.push({ line: 0, code: '?', text: `tsc exited ${run.status}` });
  for (const { file, line, code, text } of errors) {
    const sample = file === undefined ? undefined : byFile.get(file);
    if (sample) {
      // Line 1 of a sample's module is the block's first line.
      found.get(sample)?.push(`${sample.file}:${sample.line + line - 1} (${setting.name}): TS${code} ${text}`);
    } else {
      // Not in a sample (an option, or a package file the samples reach): every sample reports it.
      for (const messages of found.values()) messages.push(`${file ?? 'options'} (${setting.name}): TS${code} ${text}`);
    }
  }
  return found;
}

/**
 * The negative control: a sample that must fail. It is type-checked in the bundler program beside
 * the real samples (each sample is a module of its own, so its error stays its own) rather than in a
 * compiler run of its own.
 */
const [CONTROL] = extractSamples(
  'docs/example.md',
  [
    '# Page',
    '',
    '```ts',
    "import { unwrap } from '@store-admin/contract';",
    '',
    'const n: number = unwrap;',
    '```',
  ].join('\n'),
);
if (!CONTROL) throw new Error('the negative control sample was not extracted');

/** Setting name -> sample -> its messages; the control is in the first setting's program. */
const RESULTS = new Map(
  SETTINGS.map((setting, i) => [
    setting.name,
    check(
      i === 0 ? [...samples, CONTROL] : samples,
      setting,
      join(scratch, 'samples', setting.name.replace(/\W+/g, '-')),
    ),
  ]),
);

describe('code samples of README.md and docs/*.md', () => {
  it('are found (README.md has some)', () => {
    expect(samples.filter((s) => s.file === 'README.md').length).toBeGreaterThan(0);
  });

  describe.each(SETTINGS)('under $name', (setting) => {
    it.each(samples.map((sample) => [`${sample.file}:${sample.line}`, sample] as const))(
      '%s type-checks',
      (_, sample) => {
        expect(RESULTS.get(setting.name)?.get(sample)).toEqual([]);
      },
    );
  });

  it('a failing sample is reported with its file and line (negative control)', () => {
    expect(CONTROL.line).toBe(4);
    const messages = RESULTS.get(SETTINGS[0]?.name ?? '')?.get(CONTROL) ?? [];
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^docs\/example\.md:6 \(esnext \+ bundler\): TS2322 /);
  });

  it('skips a block marked nocheck, and only that one', () => {
    const markdown = ['```ts nocheck', 'not: typescript', '```', '```typescript', 'const a = 1;', '```'].join('\n');
    expect(extractSamples('x.md', markdown).map((s) => s.code)).toEqual(['const a = 1;']);
  });
});
