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
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { allSamples, extractSamples, type Sample } from '../helpers/samples.ts';

const samples = allSamples();

/** The module settings checked here (nodenext: in test/package, on the tarball). */
const SETTINGS: { name: string; options: ts.CompilerOptions }[] = [
  {
    name: 'esnext + bundler',
    options: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  },
];

// The samples and the compiler's incremental state live in node_modules/.cache (as vitest's and
// test/architecture/typecheck.test.ts's do): a second run re-checks only the samples and sources that
// changed and still reports every error, those of unchanged files from the saved state (~10 -> ~3 s
// of CPU when little changed). A fresh clone (CI) has no state and checks everything.
const scratch = join(ROOT, 'node_modules', '.cache', 'docs-samples');
rmSync(join(scratch, 'samples'), { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
// Samples are ES modules (top-level await, `import`), as in a `"type": "module"` package.
writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }\n');

/** One module per sample; returns sample file name -> sample. */
function writeSamples(list: Sample[], dir: string): Map<string, Sample> {
  mkdirSync(dir, { recursive: true });
  const byFile = new Map<string, Sample>();
  list.forEach((sample, i) => {
    const name = join(dir, `sample-${String(i).padStart(3, '0')}.ts`);
    // `export {}` keeps every sample a module of its own, even one without imports.
    writeFileSync(name, `${sample.code}\nexport {};\n`);
    byFile.set(name, sample);
  });
  return byFile;
}

/** Type-checks the samples under one module setting; one message per error, `file:line (setting): …`. */
function check(list: Sample[], setting: (typeof SETTINGS)[number], dir: string): Map<Sample, string[]> {
  const byFile = writeSamples(list, dir);
  const options: ts.CompilerOptions = {
    ...setting.options,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    // The package's sources import each other with `.ts` extensions (its build rewrites them).
    allowImportingTsExtensions: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    baseUrl: ROOT,
    paths: {
      '@store-admin/contract': ['src/client/index.ts'],
      '@store-admin/contract/mock': ['src/mock/index.ts'],
      '@store-admin/contract/msw': ['src/msw/index.ts'],
      '@store-admin/contract/proxy': ['src/proxy/index.ts'],
      // The samples' own dependencies, from this repo's node_modules (the samples sit in a temp folder).
      'msw/*': ['node_modules/msw/lib/*/index.d.mts'],
      '@store-admin/contract/types/*': ['generated/types/*.ts'],
      '@store-admin/contract/openapi/*': ['generated/openapi/*'],
    },
  };
  const incremental = {
    ...options,
    incremental: true,
    tsBuildInfoFile: join(scratch, `${setting.name.replace(/\W+/g, '-')}.tsbuildinfo`),
  };
  const builder = ts.createIncrementalProgram({ rootNames: [...byFile.keys()], options: incremental });
  const program = builder.getProgram();
  const found = new Map<Sample, string[]>(list.map((sample) => [sample, []]));
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  const diagnostics = [...builder.getSyntacticDiagnostics(), ...builder.getSemanticDiagnostics()];
  builder.emit(); // with noEmit: writes the incremental state only
  for (const diagnostic of [...global, ...diagnostics]) {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const sample = diagnostic.file ? byFile.get(diagnostic.file.fileName) : undefined;
    if (sample && diagnostic.file && diagnostic.start !== undefined) {
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      found.get(sample)?.push(`${sample.file}:${sample.line + line} (${setting.name}): TS${diagnostic.code} ${text}`);
    } else {
      // Not in a sample (an option, or a package file the samples reach): every sample reports it.
      const where = diagnostic.file ? relative(ROOT, diagnostic.file.fileName) : 'options';
      for (const messages of found.values()) messages.push(`${where} (${setting.name}): TS${diagnostic.code} ${text}`);
    }
  }
  return found;
}

/**
 * The negative control: a sample that must fail. It is type-checked in the bundler program beside
 * the real samples (each sample is a module of its own, so its error stays its own) rather than in a
 * compiler run of its own (about 5 s of CPU).
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
