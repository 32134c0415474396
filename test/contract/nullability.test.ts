// The nullability policy of info.description, checked on every object schema reachable from a
// response: each listed property is required; each accepts null, except the structural fields
// (a record's `id`, a page envelope's `results`) and the
// fields recorded traffic showed never null, each adopted with its evidence in the version's
// changelog ("drop null (never null in N observations …)", written by `drift --propose --write`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAgainst } from '../helpers/ajv.ts';
import { type ApiVersion, deref, type Json, loadBundle, operationsOf, ROOT, VERSIONS } from '../helpers/bundles.ts';

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

/** `Schema.field` of each "drop null" the version's changelog adopts, with its evidence. */
function neverNull(version: ApiVersion): Set<string> {
  const text = readFileSync(join(ROOT, 'openapi/changelogs', `${version}.md`), 'utf8');
  const names = [...text.matchAll(/^- [^\n]*?: ([\w./[\]]+): drop null \(never null in \d+ observations/gm)];
  return new Set(names.map((m) => (m[1] as string).replace(/\/(allOf|anyOf|oneOf)\/\d+/g, '')));
}

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

// The schema files are shared between versions, so an adoption holds in every version whose bundle
// has the schema, though its evidence is in the changelogs of the versions that had it when it was
// adopted: a version added later (serving only GET /store/) has no recorded traffic of its own.
const evidenced = new Set(VERSIONS.flatMap((v) => [...neverNull(v)]));

it('adopts fields never null with their evidence (the staging recording)', () => {
  expect(evidenced.size).toBeGreaterThan(0);
});

describe.each(VERSIONS)('nullability policy in %s', (version) => {
  const schemas = [...responseObjectSchemas(version)];

  it('reaches the response objects', () => {
    expect(schemas.length).toBeGreaterThan(0);
  });

  it.each(schemas)('%s: every property is required; null refused only with a reason', (label, schema) => {
    const acceptsNull = (property: Json) => validateAgainst(version, property, null).length === 0;
    const refuses = (name: string) => STRUCTURAL.has(name) || evidenced.has(`${label}.${name}`);
    const wrong = Object.entries<Json>(schema.properties)
      .filter(([name, property]) => acceptsNull(property) === refuses(name))
      .map(([name]) => name);
    expect(wrong).toEqual([]);
    expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(schema.properties).sort());
  });
});
