// The nullability policy of info.description, checked on every object schema reachable from a
// response: each listed property is required; each accepts null, except the structural fields
// (a record's `id`, a page envelope's `results`), which never do.
import { describe, expect, it } from 'vitest';
import { validateAgainst } from '../helpers/ajv.ts';
import { type ApiVersion, deref, type Json, loadBundle, operationsOf, VERSIONS } from '../helpers/bundles.ts';

/** Object schemas (with `properties`) reachable from the 2xx responses of a version. */
function responseObjectSchemas(version: ApiVersion): Map<string, Json> {
  const bundle = loadBundle(version);
  const found = new Map<string, Json>();
  const seen = new Set<Json>();
  const visit = (node: Json, at: string) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const label = typeof node.$ref === 'string' ? node.$ref.replace('#/components/schemas/', '') : at;
    const schema = deref(bundle, node);
    if (schema !== node) return visit(schema, label);
    if (schema.properties) found.set(label, schema);
    for (const [name, child] of Object.entries<Json>(schema.properties ?? {})) visit(child, `${label}.${name}`);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) for (const child of schema[key] ?? []) visit(child, label);
    if (schema.items) visit(schema.items, `${label}[]`);
  };
  for (const { method, path, operation } of operationsOf(version)) {
    for (const [code, response] of Object.entries<Json>(operation.responses)) {
      if (!/^2\d\d$/.test(code)) continue;
      visit(deref(bundle, response).content?.['application/json']?.schema, `${method} ${path} ${code}`);
    }
  }
  return found;
}

/** The structural fields: what identifies a record, and the array a page carries. */
const STRUCTURAL = new Set(['id', 'results']);

it('reaches the page envelopes (results) of the versions with list operations', () => {
  const pages = VERSIONS.flatMap((v) => [...responseObjectSchemas(v).values()]).filter(
    (s) => 'results' in s.properties,
  );
  expect(pages.length).toBeGreaterThan(4);
});

it('reaches the records with an `id` (a version may serve none, e.g. only GET /store/)', () => {
  const records = VERSIONS.flatMap((v) => [...responseObjectSchemas(v).values()]).filter((s) => 'id' in s.properties);
  expect(records.length).toBeGreaterThan(4);
});

describe.each(VERSIONS)('nullability policy in %s', (version) => {
  const schemas = [...responseObjectSchemas(version)];

  it('reaches the response objects', () => {
    expect(schemas.length).toBeGreaterThan(0);
  });

  it.each(schemas)('%s: every property is required; only id and results refuse null', (_label, schema) => {
    const acceptsNull = (property: Json) => validateAgainst(version, property, null).length === 0;
    const wrong = Object.entries<Json>(schema.properties)
      .filter(([name, property]) => acceptsNull(property) === STRUCTURAL.has(name))
      .map(([name]) => name);
    expect(wrong).toEqual([]);
    expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(schema.properties).sort());
  });
});
