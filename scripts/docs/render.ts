/**
 * Renders one bundled API version into a single self-contained HTML page with Redocly
 * (`build-docs --inlineBundle`: the Redoc script is embedded, so the page opens offline), and
 * writes the index page that links the versions. Kept apart from the CLI so that tests can render
 * a doctored bundle and check that the page checker notices what is missing.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HTTP_METHODS } from '../../src/contract/index.ts';

const run = promisify(execFile);
const redoclyBin = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

/** The package root (holds redocly.yaml, whose `openapi` theme options build-docs applies). */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Renders `bundleFile` (one API version, already bundled) into `outFile`. */
export async function renderVersion(bundleFile: string, outFile: string): Promise<void> {
  const args = [redoclyBin, 'build-docs', bundleFile, '--inlineBundle', '--output', outFile, '--lint-config', 'off'];
  try {
    await run(process.execPath, args, {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    throw new Error(`Redocly could not render ${bundleFile}:\n${stdout}${stderr}`);
  }
}

export interface IndexEntry {
  version: string;
  title: string;
  summary: string;
  operations: number;
  file: string;
  /** The version header's name, read from the bundle (its only source is the OpenAPI parameter). */
  header?: string;
}

interface HeaderParameter {
  in?: string;
  name?: string;
  schema?: { enum?: unknown[] };
}

/** What the index lists about one bundle: title, summary, operation count and version header. */
export async function describeBundle(version: string, bundleFile: string, file: string): Promise<IndexEntry> {
  const bundle = JSON.parse(await readFile(bundleFile, 'utf8')) as {
    info?: { title?: string; summary?: string };
    paths?: Record<string, Record<string, unknown>>;
    components?: { parameters?: Record<string, HeaderParameter> };
  };
  const header = Object.values(bundle.components?.parameters ?? {}).find(
    (p) => p.in === 'header' && p.schema?.enum?.includes(version),
  )?.name;
  const methods = new Set<string>(HTTP_METHODS);
  const operations = Object.values(bundle.paths ?? {}).reduce(
    (count, item) => count + Object.keys(item).filter((key) => methods.has(key)).length,
    0,
  );
  return {
    version,
    title: bundle.info?.title ?? version,
    summary: bundle.info?.summary ?? '',
    operations,
    file,
    ...(header ? { header } : {}),
  };
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A small static page (no script, no external resource) linking every version's page. */
export function indexPage(packageName: string, entries: readonly IndexEntry[]): string {
  const rows = entries
    .map(
      (e) =>
        `      <tr><td><a href="${escapeHtml(e.file)}">${escapeHtml(e.version)}</a></td>` +
        `<td>${escapeHtml(e.title)}</td><td>${escapeHtml(e.summary)}</td><td class="n">${e.operations}</td></tr>`,
    )
    .join('\n');
  const headers = [...new Set(entries.map((e) => e.header).filter(Boolean))] as string[];
  const header = headers.map((h) => `<code>${escapeHtml(h)}</code>`).join(' / ') || 'version';
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(packageName)}: API reference</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1a1a1a; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .4rem .8rem; border-bottom: 1px solid #ddd; vertical-align: top; }
    td.n { text-align: right; }
  </style>
</head>
<body>
  <h1>Store Admin API reference</h1>
  <p>One page per API version of <code>${escapeHtml(packageName)}</code>. Each page is self-contained and opens offline.
  Send the version in the ${header} header of every request.</p>
  <table>
    <thead><tr><th>API version</th><th>Title</th><th>Summary</th><th>Operations</th></tr></thead>
    <tbody>
${rows}
    </tbody>
  </table>
</body>
</html>
`;
}
