/**
 * Builds every generated artifact from the hand-written OpenAPI source, so that what users consume
 * (bundles, types, the contract's operation table) is always derived and never edited by hand:
 *   1. Redocly bundles every API of redocly.yaml (one run) into generated/openapi/<version>.yaml
 *   2. the same bundle is written as generated/openapi/<version>.json
 *   3. openapi-typescript turns each bundle into generated/types/<version>.ts
 *   4. generated/types/index.ts (type level) and src/contract/operations.generated.ts (the versions,
 *      the version header's name, which versions serve each operation)
 * Usage: tsx scripts/build.ts [--out DIR] [--bundles-only]   (DIR defaults to the repo; the freshness test
 * uses a temp DIR, which receives openapi/, types/ and operations.generated.ts). --bundles-only stops
 * after steps 1-2: `drift --propose` judges an edit on the bundles alone, and the types are about
 * half of a build's time.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT } from '../src/cli/index.ts';
import { packageRoot } from '../src/contract/index.ts';
import { bundleApis } from './lib/redocly.ts';
import { redoclyApis } from './lib/redocly-apis.ts';
import { assertLocalRefs, SourceGuardError } from './lib/source-guard.ts';

// A refused source (scripts/lib/source-guard.ts) or any other failure: one message, never exit 1.
process.on('uncaughtException', (error) => {
  console.error(`build: ${error instanceof SourceGuardError ? error.message : (error.stack ?? error)}`);
  process.exit(EXIT.internal);
});

const { values } = parseArgs({ options: { out: { type: 'string' }, 'bundles-only': { type: 'boolean' } } });
const bundlesOnly = values['bundles-only'] === true;
// The contract being built: the working folder's redocly.yaml when it has one (a scratch copy in the
// tests), else this package's.
const root = existsSync('redocly.yaml') ? process.cwd() : packageRoot();
const generated = values.out ? resolve(values.out) : join(root, 'generated');
const browserBundlesFile = values.out
  ? join(generated, 'bundles.generated.ts')
  : join(root, 'src/msw/bundles.generated.ts');
const namespacesFile = values.out
  ? join(generated, 'namespaces.generated.ts')
  : join(root, 'src/client/namespaces.generated.ts');
const tableFile = values.out
  ? join(generated, 'operations.generated.ts')
  : join(root, 'src/contract/operations.generated.ts');

// The generators (openapi-typescript, TypeScript: a second of start-up) load once a source has
// passed the guard and bundled, so that a refused source fails fast.
let generators: Promise<typeof import('../src/codegen/index.ts')> | undefined;
const codegen = () => {
  generators ??= import('../src/codegen/index.ts');
  return generators;
};

async function step<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  console.log(`  ${label.padEnd(44)} ${(performance.now() - started).toFixed(0).padStart(6)} ms`);
  return result;
}

const started = performance.now();
const apis = redoclyApis(root);
console.log(`Building ${apis.length} API versions into ${generated}`);
await mkdir(join(generated, 'openapi'), { recursive: true });
if (!bundlesOnly) await mkdir(join(generated, 'types'), { recursive: true });
const documents = await step(`bundle ${apis.length} versions -> openapi/<version>.yaml`, () =>
  bundleApis(apis, join(generated, 'openapi'), root),
);
if (!bundlesOnly) void codegen(); // loads while the JSON is written
for (const [version, document] of documents) {
  assertLocalRefs(document, `the ${version} bundle`); // openapi-typescript would resolve anything else
  await step(`write  ${version} -> openapi/${version}.json`, () =>
    writeFile(join(generated, 'openapi', `${version}.json`), `${JSON.stringify(document, null, 2)}\n`),
  );
  if (bundlesOnly) continue;
  await step(`types  ${version} -> types/${version}.ts`, async () =>
    writeFile(join(generated, 'types', `${version}.ts`), await (await codegen()).generateTypes(version, document)),
  );
}
if (!bundlesOnly) await generateTheRest();
console.log(`Built in ${(performance.now() - started).toFixed(0)} ms`);

/** Steps 3-4 after the bundles: the index of the types, the operation table, the MSW entry's imports, the namespaces. */
async function generateTheRest(): Promise<void> {
  const { generateBrowserBundles, generateOperationTable, generateTypesIndex, generateVersionNamespaces } =
    await codegen();
  await step('index  -> types/index.ts', () =>
    writeFile(join(generated, 'types', 'index.ts'), generateTypesIndex(documents)),
  );
  await step('table  -> src/contract/operations.generated.ts', () =>
    writeFile(tableFile, generateOperationTable(documents)),
  );
  await step('bundles -> src/msw/bundles.generated.ts', () =>
    writeFile(browserBundlesFile, generateBrowserBundles([...documents.keys()])),
  );
  await step('namespaces -> src/client/namespaces.generated.ts', () =>
    writeFile(namespacesFile, generateVersionNamespaces([...documents.keys()])),
  );
}
