/**
 * Renders the reference docs: one self-contained HTML page per API version (Redocly, script
 * inlined so the pages open offline without a CDN) plus an index page linking them. The pages are
 * rendered from the committed bundles (generated/openapi/<version>.json), so the docs show exactly
 * what the package ships. Rendering is deterministic (same bundle, same bytes), so generated/docs/
 * is committed and a test fails when it is stale.
 * Usage: tsx scripts/docs.ts [--bundles DIR] [--out DIR]
 *   --bundles  folder holding <version>.json bundles (default generated/openapi)
 *   --out      output folder (default generated/docs; the freshness test uses a temp folder)
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSIONS } from '../src/contract/index.ts';
import { describeBundle, type IndexEntry, indexPage, PACKAGE_ROOT, renderVersion } from './docs/render.ts';

function fail(message: string): never {
  console.error(`docs: ${message}`);
  process.exit(2);
}

let values: { bundles?: string; out?: string };
try {
  ({ values } = parseArgs({ options: { bundles: { type: 'string' }, out: { type: 'string' } } }));
} catch (error) {
  fail(`${(error as Error).message}\nusage: tsx scripts/docs.ts [--bundles DIR] [--out DIR]`);
}
const bundles = resolve(values.bundles ?? join(PACKAGE_ROOT, 'generated', 'openapi'));
const out = resolve(values.out ?? join(PACKAGE_ROOT, 'generated', 'docs'));

const started = performance.now();
console.log(`Rendering ${VERSIONS.length} API versions from ${bundles} into ${out}`);
await mkdir(out, { recursive: true });
const entries: IndexEntry[] = [];
for (const version of VERSIONS) {
  const bundleFile = join(bundles, `${version}.json`);
  await stat(bundleFile).catch(() => fail(`missing bundle ${bundleFile}: run \`npm run build\` first`));
  const file = `${version}.html`;
  const t = performance.now();
  await renderVersion(bundleFile, join(out, file)).catch((error: Error) => fail(error.message));
  const { size } = await stat(join(out, file));
  console.log(
    `  ${file.padEnd(20)} ${(size / 1024).toFixed(0).padStart(6)} KiB ${(performance.now() - t).toFixed(0).padStart(6)} ms`,
  );
  entries.push(await describeBundle(version, bundleFile, file));
}
const { name } = JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string };
await writeFile(join(out, 'index.html'), indexPage(name, entries));
// Remove pages of versions the package no longer carries.
const expected = new Set(['index.html', ...entries.map((e) => e.file)]);
for (const file of await readdir(out)) {
  if (file.endsWith('.html') && !expected.has(file)) await rm(join(out, file));
}
console.log(`  index.html -> ${entries.length} versions`);
console.log(`Rendered in ${(performance.now() - started).toFixed(0)} ms`);
