/**
 * Builds every generated artifact from the hand-written OpenAPI source, so that what users consume
 * (bundles, types) is always derived and never edited by hand:
 *   1. Redocly bundles each API version into generated/openapi/<version>.yaml
 *   2. the same bundle is written as generated/openapi/<version>.json
 *   3. openapi-typescript turns each bundle into generated/types/<version>.ts
 *   4. generated/types/index.ts lists the versions and which of them serves each operation
 * Usage: tsx scripts/build.ts [--out DIR]   (DIR defaults to generated/; the drift test uses a temp DIR)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT } from '../src/cli/exit-codes.ts';
import { bundleVersion } from './lib/bundle.ts';
import { checkSources, SourceGuardError } from './lib/source-guard.ts';
import { type ApiVersion, rootOf, VERSIONS } from './lib/versions.ts';

// A refused source (scripts/lib/source-guard.ts) or any other failure: one message, never exit 1.
process.on('uncaughtException', (error) => {
  console.error(`build: ${error instanceof SourceGuardError ? error.message : (error.stack ?? error)}`);
  process.exit(EXIT.internal);
});

const { values } = parseArgs({ options: { out: { type: 'string', default: 'generated' } } });
const out = resolve(values.out ?? 'generated');

async function step<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  console.log(`  ${label.padEnd(44)} ${(performance.now() - started).toFixed(0).padStart(6)} ms`);
  return result;
}

const started = performance.now();
console.log(`Building ${VERSIONS.length} API versions into ${out}`);
await step('check  sources (scripts/lib/source-guard.ts)', () => checkSources(VERSIONS.map(rootOf)));
// Loaded once the source is known to be safe: openapi-typescript and TypeScript take ~2 s to load.
const { generateIndex, generateTypes } = await import('./lib/types.ts');
await mkdir(join(out, 'openapi'), { recursive: true });
await mkdir(join(out, 'types'), { recursive: true });
const documents = new Map<ApiVersion, Record<string, unknown>>();
for (const version of VERSIONS) {
  const yamlFile = join(out, 'openapi', `${version}.yaml`);
  const document = await step(`bundle ${version} -> openapi/${version}.yaml`, () => bundleVersion(version, yamlFile));
  documents.set(version, document);
  await step(`write  ${version} -> openapi/${version}.json`, () =>
    writeFile(join(out, 'openapi', `${version}.json`), `${JSON.stringify(document, null, 2)}\n`),
  );
  await step(`types  ${version} -> types/${version}.ts`, async () =>
    writeFile(join(out, 'types', `${version}.ts`), await generateTypes(version, document)),
  );
}
await step('index  -> types/index.ts', () => writeFile(join(out, 'types', 'index.ts'), generateIndex(documents)));
console.log(`Built in ${(performance.now() - started).toFixed(0)} ms`);
