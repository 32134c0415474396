// Every example of every version validates against its own schema (JSON Schema 2020-12, formats
// on), every component schema is valid, and no example carries a placeholder value.
import { describe, expect, it } from 'vitest';
import { ajvFor, validateAgainst } from '../helpers/ajv.ts';
import { type ApiVersion, deref, type Json, loadBundle, operationsOf, VERSIONS } from '../helpers/bundles.ts';

interface ExampleCase {
  name: string;
  version: ApiVersion;
  schema: Json;
  value: unknown;
}

/** The examples of one media type: `example`, or each named entry of `examples`. */
function examplesOf(version: ApiVersion, where: string, media: Json): ExampleCase[] {
  const bundle = loadBundle(version);
  if ('example' in media) return [{ name: where, version, schema: media.schema, value: media.example }];
  return Object.entries<Json>(media.examples ?? {}).map(([name, example]) => ({
    name: `${where} example "${name}"`,
    version,
    schema: media.schema,
    value: deref(bundle, example).value,
  }));
}

function allExamples(): ExampleCase[] {
  return VERSIONS.flatMap((version) => {
    const bundle = loadBundle(version);
    return operationsOf(version).flatMap(({ method, path, operation }) => {
      const label = `${version} ${method.toUpperCase()} ${path}`;
      const body = deref(bundle, operation.requestBody)?.content?.['application/json'];
      const responses = Object.entries<Json>(operation.responses).flatMap(([code, response]) => {
        const media = deref(bundle, response).content?.['application/json'];
        return media ? examplesOf(version, `${label} ${code}`, media) : [];
      });
      return [...(body ? examplesOf(version, `${label} request`, body) : []), ...responses];
    });
  });
}

const cases = allExamples();

describe('examples', () => {
  it('exist for every operation', () => {
    expect(cases.length).toBeGreaterThanOrEqual(19);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s validates against its schema', (_name, c) => {
    expect(validateAgainst(c.version, c.schema, c.value)).toEqual([]);
  });

  it('carry no placeholder values', () => {
    const placeholders: string[] = [];
    const scan = (value: unknown, at: string) => {
      if (value === 'string' || value === 'TODO') placeholders.push(at);
      else if (value && typeof value === 'object')
        for (const [key, child] of Object.entries(value)) scan(child, `${at}.${key}`);
    };
    for (const c of cases) scan(c.value, c.name);
    expect(placeholders).toEqual([]);
  });
});

describe.each(VERSIONS)('component schemas of %s', (version) => {
  const schemas = Object.keys(loadBundle(version).components?.schemas ?? {});

  it.each(schemas)('%s is a valid JSON Schema 2020-12 and compiles', (name) => {
    const ajv = ajvFor(version);
    expect(ajv.validateSchema(loadBundle(version).components.schemas[name]), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.getSchema(`bundle.json#/components/schemas/${name}`)).not.toThrow();
  });
});
