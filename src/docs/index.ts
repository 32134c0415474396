/**
 * The API reference site: one page for every API version the package carries, rendered in the
 * browser by Stoplight Elements (`<elements-api>`, read from node_modules, nothing from a CDN),
 * with a version switcher, each operation's versions, scopes, version header, example names and
 * changelog entries, and try-it against a base URL of the reader's choice (the mock's own origin
 * when the mock serves it at /docs). `docsSite` returns every file of the site (pure: it reads the
 * bundles, changelogs and renderer files, writes nothing); `createDocsHandler` serves that site
 * under a mount path as a Fetch-API handler; `createNodeDocsListener` adapts it to node:http.
 */
/// <reference types="node" />
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ASSETS, configScript, dataScript, indexHtml, PAGE_CSS } from './page.js';
import { PAGE_SCRIPT } from './page-script.js';
import { type SiteData, siteData, type VersionInput } from './site.js';

export { type SiteData, siteData } from './site.js';

export interface DocsFile {
  contentType: string;
  body: Uint8Array | string;
}

/** Every file of the site, keyed by its path relative to the site root (`index.html`, `assets/…`). */
export type DocsSite = Map<string, DocsFile>;

export interface DocsSiteOptions {
  /** Folder of the `<version>.json` bundles. Default: this package's `generated/openapi/`. */
  bundlesDir?: string;
  /** Folder of the `<version>.md` changelogs. Default: this package's `openapi/changelogs/`. */
  changelogsDir?: string;
  /** Folder holding the renderer's `web-components.min.js` and `styles.min.css`. Default: `@stoplight/elements`. */
  rendererDir?: string;
  /**
   * Where try-it sends requests until the reader picks another base URL. `null`: the page's own
   * origin (the docs are served by the mock). Default: the bundles' server URL with its defaults.
   */
  tryItBaseUrl?: string | null;
  /** Page title. Default: `<package name> API reference`. */
  title?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};
const contentTypeOf = (path: string) => CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';

/** This package's root: the nearest folder up from this module whose package.json is ours. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && existsSync(join(dir, 'generated', 'openapi'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package root above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The installed `@stoplight/elements` folder, or undefined (it is a devDependency). */
export function rendererDir(): string | undefined {
  try {
    const require = createRequire(join(packageRoot(), 'package.json'));
    return dirname(require.resolve('@stoplight/elements/web-components.min.js'));
  } catch {
    return undefined;
  }
}

/** The URL of the bundle's first server, its variables replaced by their defaults. */
function serverUrl(document: { servers?: { url?: string; variables?: Record<string, { default?: string }> }[] }) {
  const server = document.servers?.[0];
  if (!server?.url) return undefined;
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
}

/** Builds every file of the site. */
export async function docsSite(options: DocsSiteOptions = {}): Promise<DocsSite> {
  const root = options.bundlesDir && options.changelogsDir ? '' : packageRoot();
  const bundlesDir = options.bundlesDir ?? join(root, 'generated', 'openapi');
  const changelogsDir = options.changelogsDir ?? join(root, 'openapi', 'changelogs');
  const renderer = options.rendererDir ?? rendererDir();
  if (!renderer) throw new Error('@stoplight/elements is not installed: run npm install');

  const files = (await readdir(bundlesDir)).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`no <version>.json bundle in ${bundlesDir}: run npm run build`);
  const inputs: VersionInput[] = await Promise.all(
    files.map(async (file) => {
      const document = JSON.parse(await readFile(join(bundlesDir, file), 'utf8'));
      const changelog = await readFile(join(changelogsDir, `${document?.info?.version}.md`), 'utf8').catch(
        () => undefined,
      );
      return changelog === undefined ? { document } : { document, changelog };
    }),
  );
  const data: SiteData = siteData(inputs);
  const newest = data.versions[0]?.document;
  const baseUrl = options.tryItBaseUrl === undefined ? serverUrl(newest ?? {}) : options.tryItBaseUrl;
  const manifest = JSON.parse(await readFile(join(packageRoot(), 'package.json'), 'utf8').catch(() => '{}'));
  const title = options.title ?? `${manifest.name ?? 'Store Admin API'} API reference`;

  const [elementsJs, elementsCss, license] = await Promise.all([
    readFile(join(renderer, 'web-components.min.js')),
    readFile(join(renderer, 'styles.min.css')),
    readFile(join(renderer, 'web-components.min.js.LICENSE.txt')).catch(() => undefined),
  ]);
  const site: DocsSite = new Map();
  const add = (path: string, body: Uint8Array | string) => site.set(path, { contentType: contentTypeOf(path), body });
  add('index.html', indexHtml(title));
  add(ASSETS.data, dataScript(data));
  add(ASSETS.config, configScript(baseUrl ?? undefined));
  add(ASSETS.js, PAGE_SCRIPT);
  add(ASSETS.css, PAGE_CSS);
  add(ASSETS.elementsJs, new Uint8Array(elementsJs));
  add(ASSETS.elementsCss, new Uint8Array(elementsCss));
  if (license) add(ASSETS.elementsLicense, new Uint8Array(license));
  return site;
}

/** Reads a site written to disk (e.g. the prebuilt one in the published package). */
export async function readDocsSite(dir: string): Promise<DocsSite> {
  const site: DocsSite = new Map();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
    site.set(path, { contentType: contentTypeOf(path), body: new Uint8Array(await readFile(join(dir, path))) });
  }
  return site;
}

export interface DocsHandlerOptions extends DocsSiteOptions {
  /** URL path the site is served under. Default `/docs`. */
  mount?: string;
  /** Serve this prebuilt site folder instead of building one. */
  siteDir?: string;
}

/**
 * The site, built from node_modules in the repository, or the prebuilt copy the published package
 * ships (`dist/docs`). Try-it defaults to the serving origin either way.
 */
async function loadSite(options: DocsHandlerOptions): Promise<DocsSite> {
  const tryItBaseUrl = options.tryItBaseUrl === undefined ? null : options.tryItBaseUrl;
  const sameOrigin = (site: DocsSite) =>
    site.set(ASSETS.config, {
      contentType: contentTypeOf(ASSETS.config),
      body: configScript(tryItBaseUrl ?? undefined),
    });
  if (options.siteDir) return sameOrigin(await readDocsSite(options.siteDir));
  // The published package (no openapi/ sources) serves its prebuilt copy unless given other
  // bundles; the repository builds from node_modules.
  const root = packageRoot();
  const prebuilt = join(root, 'dist', 'docs');
  const published = !existsSync(join(root, 'openapi')) && !options.bundlesDir;
  if (!options.rendererDir && existsSync(join(prebuilt, 'index.html')) && (published || !rendererDir())) {
    return sameOrigin(await readDocsSite(prebuilt));
  }
  return docsSite({ ...options, tryItBaseUrl });
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });

/**
 * A Fetch-API handler serving the site under `mount` (default `/docs`; `/docs` redirects to
 * `/docs/`). Resolves to undefined for any other path. Text files are sent gzip-compressed to
 * clients that accept it. The site is built on the first request and kept.
 */
export function createDocsHandler(
  options: DocsHandlerOptions = {},
): (request: Request) => Promise<Response | undefined> {
  const mount = `/${(options.mount ?? '/docs').replace(/^\/+|\/+$/g, '')}`;
  let site: Promise<DocsSite> | undefined;
  const packed = new Map<string, Packed>();
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== mount && !url.pathname.startsWith(`${mount}/`)) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return text(405, 'Method not allowed\n', { Allow: 'GET, HEAD' });
    if (url.pathname === mount)
      return new Response(null, { status: 301, headers: { Location: `${mount}/${url.search}` } });
    site ??= loadSite(options);
    let files: DocsSite;
    try {
      files = await site;
    } catch (error) {
      site = undefined;
      return text(500, `The docs could not be built: ${(error as Error).message}\n`);
    }
    let path: string;
    try {
      path = decodeURIComponent(url.pathname.slice(mount.length + 1));
    } catch {
      return text(400, 'Malformed path\n');
    }
    if (path === '' || path.endsWith('/')) path += 'index.html';
    const file = files.get(path);
    if (!file) return text(404, `No ${path} in the docs\n`);
    return fileResponse(request, path, file, packed);
  };
}

/** A file as served: its bytes, gzipped when that pays, and its entity tag. */
interface Packed {
  body: Uint8Array;
  gzipped?: Uint8Array;
  etag: string;
}

/**
 * A file of the site as an answer: gzipped when the client takes it (packed once), with an ETag,
 * so that a browser revalidates (304) instead of fetching the 2 MB renderer again, and keeps the
 * script's compiled code.
 */
function fileResponse(request: Request, path: string, file: DocsFile, cache: Map<string, Packed>): Response {
  let entry = cache.get(path);
  if (!entry) {
    const body = typeof file.body === 'string' ? new TextEncoder().encode(file.body) : file.body;
    const packs = /^text\/|json|svg/.test(file.contentType) && body.byteLength > 1024;
    // Weak: the gzipped and the plain bytes are the same file (RFC 9110 §8.8.3).
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    entry = { body, etag, ...(packs && { gzipped: new Uint8Array(gzipSync(body, { level: 9 })) }) };
    cache.set(path, entry);
  }
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Cache-Control': 'no-cache',
    Vary: 'Accept-Encoding',
    ETag: entry.etag,
  };
  // The browser's copy is current (If-None-Match compares weakly: a list, `*`, with or without W/).
  const known = request.headers
    .get('if-none-match')
    ?.split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''));
  if (known?.some((tag) => tag === '*' || tag === entry.etag.slice(2)))
    return new Response(null, { status: 304, headers });
  const gzip = entry.gzipped && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
  const body = gzip ? (entry.gzipped as Uint8Array) : entry.body;
  if (gzip) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = String(body.byteLength);
  return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

/**
 * The docs handler for a node:http server: answers a request under the mount path and resolves to
 * true, or resolves to false (and touches nothing) for any other path.
 */
export function createNodeDocsListener(
  options: DocsHandlerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  const handler = createDocsHandler(options);
  const mount = `/${(options.mount ?? '/docs').replace(/^\/+|\/+$/g, '')}`;
  return async (request, response) => {
    const path = request.url ?? '/';
    if (!(path === mount || path.startsWith(`${mount}/`) || path.startsWith(`${mount}?`))) return false;
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const answer = await handler(new Request(`http://localhost${path}`, { method: request.method ?? 'GET', headers }));
    if (!answer) return false;
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
    return true;
  };
}
