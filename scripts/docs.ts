/**
 * Writes the API reference site (src/docs: Stoplight Elements read from node_modules, all API
 * versions on one page with a version switcher and try-it) to a folder, for `file://` or any static
 * host. The site is build output: generated/docs/ is git-ignored, and `prepack` writes it to
 * dist/docs/ for the published package. Try-it starts at the bundles' server URL (the local mock,
 * http://127.0.0.1:4010 by default); the reader can change it in the page.
 * Usage: tsx scripts/docs.ts [--bundles DIR] [--out DIR] [--base-url URL]
 *   --bundles   folder holding <version>.json bundles (default generated/openapi)
 *   --out       output folder (default generated/docs); emptied first
 *   --base-url  try-it's initial base URL (default: the bundles' server URL)
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { docsSite } from '../src/docs/index.ts';

const ROOT = resolve(import.meta.dirname, '..');
const USAGE = 'usage: tsx scripts/docs.ts [--bundles DIR] [--out DIR] [--base-url URL]';

function fail(message: string): never {
  console.error(`docs: ${message}`);
  process.exit(2);
}

let values: { bundles?: string; out?: string; 'base-url'?: string };
try {
  ({ values } = parseArgs({
    options: { bundles: { type: 'string' }, out: { type: 'string' }, 'base-url': { type: 'string' } },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const bundlesDir = resolve(values.bundles ?? join(ROOT, 'generated', 'openapi'));
const out = resolve(values.out ?? join(ROOT, 'generated', 'docs'));

const started = performance.now();
const site = await docsSite({
  bundlesDir,
  changelogsDir: join(ROOT, 'openapi', 'changelogs'),
  ...(values['base-url'] ? { tryItBaseUrl: values['base-url'] } : {}),
}).catch((error: Error) => fail(error.message));
await rm(out, { recursive: true, force: true });
let total = 0;
for (const [path, file] of site) {
  const target = join(out, path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, file.body);
  total += typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength;
}
console.log(
  `Wrote ${site.size} files (${(total / 1024).toFixed(0)} KiB) to ${out} in ${(performance.now() - started).toFixed(0)} ms: open ${join(out, 'index.html')}`,
);
