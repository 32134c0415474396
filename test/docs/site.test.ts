// The docs site as files (src/docs docsSite) and as served (createDocsHandler), without a browser:
// what each operation's description says (versions, version header, scopes, example names,
// changelog entries, against the spec inventory), that the page loads nothing from elsewhere, that
// the handler serves the site under /docs only, and the transfer weight of the whole site.
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDocsHandler, type DocsSite, docsSite, siteData } from '../../src/docs/index.ts';
import { changelogEntries, compareVersions } from '../../src/docs/site.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { deref, type Json, loadBundle, operationsOf, VERSIONS } from '../helpers/bundles.ts';

let site: DocsSite;
let data: ReturnType<typeof siteData>;

const textOf = (path: string): string => {
  const body = site.get(path)?.body;
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
};

beforeAll(async () => {
  site = await docsSite();
  const script = textOf('assets/api.js');
  data = JSON.parse(
    script
      .slice(script.indexOf('=') + 1)
      .trim()
      .replace(/;$/, ''),
  );
});

/** The version header's name as the bundles declare it (never written in the tests). */
const headerName = (): string =>
  Object.values<Json>(loadBundle(VERSIONS[0]).components.parameters).find(
    (p) => p.in === 'header' && p.schema?.enum?.includes(VERSIONS[0]),
  ).name;

describe('docsSite', () => {
  it('holds the page, its script and styles and the renderer, all referenced by relative paths', () => {
    expect([...site.keys()].sort()).toEqual([
      'assets/api.js',
      'assets/config.js',
      'assets/docs.css',
      'assets/docs.js',
      'assets/styles.min.css',
      'assets/web-components.min.js',
      'assets/web-components.min.js.LICENSE.txt',
      'index.html',
    ]);
    const html = textOf('index.html');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(site.has(String(ref)), ref).toBe(true);
    expect(html).toContain('<elements-api');
    expect(html).toContain('router="hash"');
    // No stylesheet of the page pulls a font or an image from elsewhere.
    for (const css of ['assets/styles.min.css', 'assets/docs.css']) {
      expect(textOf(css)).not.toMatch(/@import|url\(\s*['"]?(https?:)?\/\//);
    }
  });

  it('lists the versions of the bundles newest first, and the header name the bundles declare', () => {
    expect(data.versions.map((v) => v.version)).toEqual([...VERSIONS]);
    expect(data.header).toBe(headerName());
    // The reference sorts newest first; redocly.yaml must list its APIs in that order too, because
    // that order is also the order of precedence (the default version of an operation).
    expect([...VERSIONS].reverse().sort(compareVersions), 'redocly.yaml apis, newest first').toEqual([...VERSIONS]);
    // The comparator alone, on invented versions (a new version changes none of them).
    expect(['unstable', '2020-01-01', '2025-06-30'].sort(compareVersions)).toEqual([
      '2025-06-30',
      '2020-01-01',
      'unstable',
    ]);
  });

  it('knows the versions of each operation, as the spec inventory lists them', () => {
    expect(Object.keys(data.operations).sort()).toEqual(SPEC_OPERATIONS.map((op) => op.operationId).sort());
    for (const op of SPEC_OPERATIONS) expect(data.operations[op.operationId], op.operationId).toEqual(op.versions);
  });

  describe.each(VERSIONS)('version %s', (version) => {
    const shown = () => data.versions.find((v) => v.version === version)?.document;

    it('describes each operation with its versions, header, scopes, example names and changelog', () => {
      const document = shown();
      const bundle = loadBundle(version);
      const operations = SPEC_OPERATIONS.filter((op) => op.versions.includes(version));
      expect(operations.length).toBeGreaterThan(0);
      for (const spec of operations) {
        const description: string = document.paths[spec.path][spec.method].description;
        const original = operationsOf(version).find((o) => o.operationId === spec.operationId)?.operation;
        const versions = spec.versions.map((v) => (v === version ? `**${v}**` : `[${v}](`));
        expect(description, spec.operationId).toMatch(
          new RegExp(`^\\*\\*Versions:\\*\\* ${versions[0]?.replace(/[*[(]/g, '\\$&')}`),
        );
        for (const v of spec.versions) expect(description).toContain(v);
        expect(description).toContain(`**Version header:** \`${headerName()}: ${version}\``);
        for (const scope of spec.scopes) expect(description).toContain(`\`${scope}\``);
        if (spec.scopes.length > 1) expect(description).toContain(' or ');
        const examples = Object.values<Json>(original.responses)
          .flatMap((r) => Object.values<Json>(deref(bundle, r).content ?? {}))
          .flatMap((media) => Object.keys(media.examples ?? {}));
        expect(examples.length, `${spec.operationId} has named examples`).toBeGreaterThan(0);
        for (const name of examples) expect(description).toContain(`\`${name}\``);
        expect(description).toContain(`#### Changelog of version ${version}`);
        expect(description).toContain(`(\`${spec.operationId}\``);
        expect(description.endsWith(original.description) || description.includes(original.description)).toBe(true);
      }
      expect(document.info.description).toContain(`## Changelog of ${version}`);
    });
  });

  it('reads changelog entries with their section and continuation lines', () => {
    const entries = changelogEntries(
      '# T\n\nintro\n\n## Package 0.2.0\n\n- `a` one\n  more\n- `b` two\n\n## Package 0.1.0\n- `a` old\n',
    );
    expect(entries).toEqual([
      { section: 'Package 0.2.0', text: '`a` one more' },
      { section: 'Package 0.2.0', text: '`b` two' },
      { section: 'Package 0.1.0', text: '`a` old' },
    ]);
  });

  it('refuses bundles whose version header is not declared', () => {
    const bundle = structuredClone(loadBundle('unstable'));
    bundle.components.parameters = {};
    expect(() => siteData([{ document: bundle }])).toThrow(/no header parameter/);
  });

  it('starts try-it at the bundles’ server URL in the static build', () => {
    expect(textOf('assets/config.js')).toContain('"defaultBaseUrl":"http://127.0.0.1:4010"');
  });
});

describe('createDocsHandler', () => {
  const handler = createDocsHandler();
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    handler(new Request(`http://mock.test${path}`, { method, headers }));

  it('redirects /docs to /docs/ and serves the page there, with try-it aimed at its own origin', async () => {
    const redirect = await get('/docs?version=unstable');
    expect(redirect?.status).toBe(301);
    expect(redirect?.headers.get('location')).toBe('/docs/?version=unstable');
    const page = await get('/docs/');
    expect(page?.status).toBe(200);
    expect(page?.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page?.text()).toContain('<elements-api');
    expect(await (await get('/docs/assets/config.js'))?.text()).toContain('"defaultBaseUrl":null');
  });

  it('leaves every other path alone', async () => {
    for (const path of ['/subscriptions/', '/', '/docsx', '/store/']) expect(await get(path)).toBeUndefined();
  });

  it('answers 404 for an unknown file, 405 for other methods, headers only for HEAD', async () => {
    expect((await get('/docs/nope.js'))?.status).toBe(404);
    expect((await get('/docs/', {}, 'POST'))?.status).toBe(405);
    const head = await get('/docs/assets/web-components.min.js', {}, 'HEAD');
    expect(head?.status).toBe(200);
    expect(Number(head?.headers.get('content-length'))).toBeGreaterThan(1_000_000);
    expect(await head?.text()).toBe('');
  });

  it('sends text gzip-compressed when accepted; the whole site weighs under 3 MB so', async () => {
    let transferred = 0;
    for (const path of site.keys()) {
      const response = await get(`/docs/${path}`, { 'accept-encoding': 'gzip, deflate, br' });
      const body = new Uint8Array(await (response as Response).arrayBuffer());
      const original = site.get(path)?.body as Uint8Array | string;
      const raw = typeof original === 'string' ? new TextEncoder().encode(original) : original;
      if (response?.headers.get('content-encoding') === 'gzip') expect(gunzipSync(body).equals(raw), path).toBe(true);
      // config.js differs by design: served, try-it aims at the serving origin.
      else if (path !== 'assets/config.js') expect(Buffer.from(body).equals(Buffer.from(raw)), path).toBe(true);
      transferred += body.byteLength;
    }
    const js = await get('/docs/assets/web-components.min.js', { 'accept-encoding': 'gzip' });
    expect(js?.headers.get('content-encoding')).toBe('gzip');
    expect(transferred).toBeLessThan(3_000_000);
  });

  it('tags every file, so that a browser revalidates (304, no body) instead of fetching it again', async () => {
    const path = '/docs/assets/web-components.min.js';
    const [plain, packed] = [await get(path), await get(path, { 'accept-encoding': 'gzip' })];
    const tag = plain?.headers.get('etag') ?? '';
    expect(tag).toMatch(/^W\/"[\w-]{22}"$/);
    // One file, two encodings: the same weak tag.
    expect(packed?.headers.get('etag')).toBe(tag);
    for (const ifNoneMatch of [tag, tag.slice(2), `"other", ${tag}`, '*']) {
      const again = await get(path, { 'if-none-match': ifNoneMatch });
      expect(again?.status, ifNoneMatch).toBe(304);
      expect(await again?.text()).toBe('');
      expect(again?.headers.get('etag')).toBe(tag);
    }
    expect((await get(path, { 'if-none-match': 'W/"other"' }))?.status).toBe(200);
    const page = await get('/docs/');
    expect(page?.headers.get('etag')).not.toBe(tag);
  });
});
