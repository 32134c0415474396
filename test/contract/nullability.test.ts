// The nullability policy of info.description, checked on every object schema reachable from a
// response: each property accepts null and each listed property is required.
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

describe.each(VERSIONS)('nullability policy in %s', (version) => {
  const schemas = [...responseObjectSchemas(version)];

  it('reaches the response objects', () => {
    expect(schemas.length).toBeGreaterThan(0);
  });

  it.each(schemas)('%s: every property accepts null and is required', (_label, schema) => {
    const notNullable = Object.entries<Json>(schema.properties).filter(
      ([, property]) => validateAgainst(version, property, null).length > 0,
    );
    expect(notNullable.map(([name]) => name)).toEqual([]);
    expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(schema.properties).sort());
  });
});
