/**
 * Static mode (`--static`, Prism): what a valid request gets: the operation's realistic example by
 * default, another named example with `Prefer: example=<name>`, a declared status with
 * `Prefer: code=<status>`, and generated data in dynamic mode (`--dynamic` /
 * `Prefer: dynamic=true`), repeatable with a seed. (The data-backed mock's Prefer handling:
 * test/mock/store.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, Contract, requestExample } from '../../src/conformance/index.ts';
import { deref, type Json, listExamples, loadBundles } from '../../src/contract/index.ts';
import { type MockServer, PROBLEMS, startMock } from '../../src/mock/index.ts';
import { type CallOptions, call as rawCall } from './http.ts';

const bundles = loadBundles();
const contract = new Contract(bundles);
const operations = bundles.flatMap((bundle) =>
  bundle.operations.map((operation) => ({
    name: `${operation.operationId} (${bundle.version})`,
    operation,
    document: bundle.document,
    version: bundle.version,
    method: operation.method.toUpperCase(),
    url: buildPath(operation, bundle.document, {}),
    body: requestExample(operation, bundle.document),
  })),
);

/** Every named 200 example: `Prefer: example=<name>` must return exactly its value. */
const namedExamples = listExamples(bundles).flatMap((listing) => {
  const entry = operations.find(
    (o) => o.version === listing.version && o.operation.operationId === listing.operationId,
  );
  if (!entry) return [];
  return (listing.examples['200'] ?? []).map((name) => {
    const media = deref(entry.document, entry.operation.operation.responses['200']).content['application/json'];
    return { ...entry, example: name, value: deref(entry.document, media.examples[name]).value as Json };
  });
});

let staticMock: MockServer;
beforeAll(async () => {
  staticMock = await startMock({ port: 0, static: true });
});
afterAll(async () => {
  await staticMock?.close();
});

describe('examples', () => {
  const call = (method: string, path: string, options: CallOptions = {}) =>
    rawCall(method, path, { baseUrl: staticMock.url, ...options });

  it('every operation has at least one named example', () => {
    expect(new Set(namedExamples.map((e) => e.name)).size).toBe(operations.length);
  });

  it.each(operations)('$name answers its first example by default, valid against its schema', async (o) => {
    const response = await call(o.method, o.url, { version: o.version, ...(o.body !== undefined && { body: o.body }) });
    expect(response.status).toBe(200);
    expect(
      contract.validateResponse(o.operation, response.status, response.headers.get('content-type'), response.text),
    ).toEqual([]);
    expect(response.headers.get('sl-violations')).toBeNull();
    const first = namedExamples.find((e) => e.name === o.name);
    expect(response.json).toEqual(first?.value);
  });

  it.each(namedExamples)('$name with Prefer: example=$example returns that example', async (e) => {
    const response = await call(e.method, e.url, {
      version: e.version,
      headers: { Prefer: `example=${e.example}` },
      ...(e.body !== undefined && { body: e.body }),
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual(e.value);
  });

  it('answers 404 naming the available examples for an unknown example name', async () => {
    const response = await call('GET', '/subscriptions/', { headers: { Prefer: 'example=cancelled' } });
    expect(response.status).toBe(404);
    // Prism's 404 through the one catalogue, as the data-backed mock answers it.
    expect(response.json).toMatchObject({ type: PROBLEMS.noSuchExample.type, title: PROBLEMS.noSuchExample.title });
    expect(response.json.detail).toContain('cancelled');
    expect(response.json.detail).toContain('active, past_due');
  });

  it('answers a declared status with Prefer: code, and 404 naming the declared ones otherwise', async () => {
    const unauthorized = await call('GET', '/store/', { headers: { Prefer: 'code=401' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toContain('Bearer');
    expect(unauthorized.json.detail).toContain('Prefer: code=401');
    const undeclared = await call('GET', '/store/', { headers: { Prefer: 'code=404' } });
    expect(undeclared.status).toBe(404);
    expect(undeclared.json).toMatchObject({ type: PROBLEMS.noSuchResponse.type, title: PROBLEMS.noSuchResponse.title });
    expect(undeclared.json.detail).toContain('200 (examples: store)');
  });

  // The one parse of the header (src/http/prefer.ts): a scenario token too, as the data-backed mock.
  it.each(['code=teapot', 'fail=418', 'delay=soon'])('refuses Prefer: %s, naming the header', async (prefer) => {
    const response = await call('GET', '/store/', { headers: { Prefer: prefer } });
    expect(response.status).toBe(400);
    expect(response.json.validation).toEqual([expect.objectContaining({ field: 'header.Prefer', rule: 'prefer' })]);
  });

  it('still validates the request when an example is picked', async () => {
    const response = await call('POST', '/gift-cards/', {
      headers: { Prefer: 'example=eur' },
      body: { currency: 'EURO', initial: '1' },
    });
    expect(response.status).toBe(422);
  });
});

describe('dynamic mode', () => {
  let dynamic: MockServer;
  beforeAll(async () => {
    dynamic = await startMock({ port: 0, dynamic: true });
  });
  afterAll(async () => {
    await dynamic?.close();
  });

  /**
   * The fields of `value`, at any depth, that its schema does not declare. A schema declaring no
   * properties (a free-form object) is open; `allOf`, `anyOf` and `oneOf` branches add theirs.
   */
  const undeclared = (document: Json, node: Json, value: Json, at = 'body'): string[] => {
    const schema = deref(document, node) ?? {};
    const branches: Json[] = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
    if (Array.isArray(value)) {
      const items = [schema, ...branches.map((b) => deref(document, b))].find((s) => s?.items)?.items;
      return items ? value.flatMap((item, i) => undeclared(document, items, item, `${at}[${i}]`)) : [];
    }
    if (value === null || typeof value !== 'object') return [];
    const declared = [schema, ...branches.map((b) => deref(document, b))].flatMap((s) =>
      Object.entries<Json>(s?.properties ?? {}),
    );
    if (declared.length === 0) return [];
    return Object.entries<Json>(value).flatMap(([key, child]) => {
      const schemas = declared.filter(([name]) => name === key).map(([, property]) => property);
      return schemas.length ? undeclared(document, { anyOf: schemas }, child, `${at}.${key}`) : [`${at}.${key}`];
    });
  };

  it.each(operations)('$name generates data valid against its schema, repeatably, without extra fields', async (o) => {
    const options = { baseUrl: dynamic.url, version: o.version, ...(o.body !== undefined && { body: o.body }) };
    const first = await rawCall(o.method, o.url, options);
    expect(first.status).toBe(200);
    expect(contract.validateResponse(o.operation, first.status, first.headers.get('content-type'), first.text)).toEqual(
      [],
    );
    const again = await rawCall(o.method, o.url, options);
    expect(again.text).toBe(first.text);
    const schema = deref(o.document, o.operation.operation.responses['200']).content['application/json'].schema;
    expect(undeclared(o.document, schema, first.json)).toEqual([]);
  });

  it('gives other data with another seed, and examples again with Prefer: dynamic=false', async () => {
    const seeded = await rawCall('GET', '/store/', { baseUrl: dynamic.url });
    const reseeded = await rawCall('GET', '/store/', { baseUrl: dynamic.url, headers: { Prefer: 'seed=another' } });
    expect(reseeded.status).toBe(200);
    expect(reseeded.text).not.toBe(seeded.text);
    const example = await rawCall('GET', '/store/', { baseUrl: dynamic.url, headers: { Prefer: 'dynamic=false' } });
    const fromStaticMock = await rawCall('GET', '/store/', { baseUrl: staticMock.url });
    expect(example.json).toEqual(fromStaticMock.json);
  });

  it('lets a request of the example server ask for generated data', async () => {
    const generated = await rawCall('GET', '/store/', { baseUrl: staticMock.url, headers: { Prefer: 'dynamic=true' } });
    const example = await rawCall('GET', '/store/', { baseUrl: staticMock.url });
    expect(generated.status).toBe(200);
    expect(generated.text).not.toBe(example.text);
  });
});
