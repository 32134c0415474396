/**
 * One port, every version: the X-Service-API-Version header selects the version as on the real
 * API, a request without it gets the endpoint's newest version (echoed in the response header), and
 * a version the endpoint does not list is refused with the allowed values.
 */
import { describe, expect, it } from 'vitest';
import { buildPath, requestExample } from '../../src/conformance/index.ts';
import { loadBundles, VERSION_HEADER, VERSIONS, versionOf, versionsOf } from '../../src/contract/index.ts';
import { templatesOf } from '../../src/mock/model/templates.ts';
import { SPEC_OPERATIONS } from '../contract/inventory.ts';
import { engineOf, send } from './engine.ts';
import { call, freshToken, STORE_BODIES, STORE_PARAMS } from './http.ts';

const bundles = loadBundles();

/** Each (method, path) once, with the versions listing it in newest-first order. */
const endpoints = (() => {
  const byKey = new Map<string, { method: string; path: string; url: string; versions: string[]; body: unknown }>();
  for (const bundle of bundles) {
    for (const operation of bundle.operations) {
      const key = `${operation.method} ${operation.path}`;
      const entry = byKey.get(key) ?? {
        method: operation.method.toUpperCase(),
        path: operation.path,
        url: buildPath(operation, bundle.document, STORE_PARAMS),
        versions: [],
        body: STORE_BODIES[operation.operationId] ?? requestExample(operation, bundle.document),
      };
      entry.versions.push(bundle.version);
      byKey.set(key, entry);
    }
  }
  return [...byKey.values()];
})();

describe('version routing', () => {
  // The counts come from the spec inventory: a new operation or version changes no number here.
  it('serves every operation of the inventory, under every version of the contract', () => {
    expect(endpoints).toHaveLength(SPEC_OPERATIONS.length);
    expect(bundles.map((b) => b.version)).toEqual([...VERSIONS]);
  });

  it('answers GET /subscriptions/ with the 2024-04-01 shape under 2024-04-01', async () => {
    const sent = '2024-04-01';
    const response = await call('GET', '/subscriptions/', { version: sent });
    expect(response.status).toBe(200);
    expect(response.headers.get(VERSION_HEADER)).toBe(sent);
    const [subscription] = response.json.results;
    expect(subscription).not.toHaveProperty('is_tax_known');
    expect(subscription.lines[0]).toHaveProperty('product_id');
    expect(subscription.lines[0]).toHaveProperty('variant_title');
    expect(subscription.lines[0]).not.toHaveProperty('stockrecord');
  });

  it('answers GET /subscriptions/ with the older shape under 2023-02-10', async () => {
    const sent = '2023-02-10';
    const response = await call('GET', '/subscriptions/', { version: sent });
    expect(response.status).toBe(200);
    expect(response.headers.get(VERSION_HEADER)).toBe(sent);
    const [subscription] = response.json.results;
    expect(subscription).toHaveProperty('is_tax_known');
    expect(subscription.lines[0]).toHaveProperty('product.categories');
    expect(subscription.lines[0]).toHaveProperty('stockrecord.partner_sku');
    expect(subscription.lines[0]).not.toHaveProperty('product_id');
    expect(subscription.lines[0]).not.toHaveProperty('sku');
  });

  it('reads the header case-insensitively', async () => {
    const sent = '2023-02-10';
    const response = await call('GET', '/subscriptions/', { headers: { 'x-service-api-version': sent } });
    expect(response.headers.get(VERSION_HEADER)).toBe(sent);
  });

  it.each(endpoints)(
    'without the header, $method $path gets its newest version, echoed back',
    async ({ method, url, versions, body }) => {
      const response = await call(method, url, {
        version: null,
        token: freshToken(),
        ...(body !== undefined && { body }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get(VERSION_HEADER)).toBe(versions[0]);
    },
  );

  it.each(endpoints)('$method $path refuses the versions it does not list', async ({ method, url, versions, body }) => {
    const refused = [...VERSIONS.filter((v) => !versions.includes(v)), '2022-01-01', 'latest'];
    for (const version of refused) {
      const response = await call(method, url, { version, ...(body !== undefined && { body }) });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.json).toMatchObject({
        title: 'Unsupported API version',
        header: VERSION_HEADER,
        received: version,
        allowed: versions,
      });
      expect(response.json.validation).toEqual([
        expect.objectContaining({ field: `header.${VERSION_HEADER}`, rule: 'version' }),
      ]);
      expect(response.json.detail).toContain(VERSION_HEADER);
      for (const allowed of versions) expect(response.json.detail).toContain(allowed);
    }
  });

  it.each(endpoints)('$method $path answers under each version it lists', async ({ method, url, versions, body }) => {
    for (const version of versions) {
      const response = await call(method, url, { version, token: freshToken(), ...(body !== undefined && { body }) });
      expect(response.status).toBe(200);
      expect(response.headers.get(VERSION_HEADER)).toBe(version);
    }
  });
});

describe('the default version, whatever the order of the bundles', () => {
  // The bundles are data (a browser passes them in): their order must not pick the default.
  const engine = engineOf({ bundles: [...bundles].reverse() });

  it('lists the versions in the contract order', () => {
    expect(engine.versions).toEqual([...VERSIONS]);
  });

  // Records start as the example of their operation's default version: a field of one version only
  // (the field recipe) was missing from every record once the bundles came in another order.
  it.each(SPEC_OPERATIONS.filter((op) => op.method === 'get'))(
    'seeds $operationId records from the example of its default version',
    ({ operationId }) => {
      expect(templatesOf([...bundles].reverse()).of(operationId)).toEqual(templatesOf(bundles).of(operationId));
    },
  );

  it.each(endpoints)('without the header, $method $path gets versionOf(method, path)', async (endpoint) => {
    const { method, path, url, body } = endpoint;
    const response = await send(engine, method, url, { token: 'reversed', ...(body !== undefined && { body }) });
    expect(response.status).toBe(200);
    expect(response.headers.get(VERSION_HEADER)).toBe(versionOf(method, path));
  });

  it('refuses an unlisted version naming the allowed ones in the contract order', async () => {
    const response = await send(engine, 'GET', '/subscriptions/', { version: '2022-01-01' });
    expect(response.status).toBe(400);
    expect(response.json.allowed).toEqual(versionsOf('GET', '/subscriptions/'));
  });
});

describe('unknown routes', () => {
  it('answers 404 for an unknown path, with a hint when only the trailing slash is missing', async () => {
    const unknown = await call('GET', '/customers/');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    const noSlash = await call('GET', '/store');
    expect(noSlash.status).toBe(404);
    expect(noSlash.json.detail).toContain('Did you mean /store/?');
  });

  it('answers 405 with Allow for a method the path does not have', async () => {
    const response = await call('DELETE', '/tickets/1/');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH');
  });
});
