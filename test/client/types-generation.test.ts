// src/codegen (the types generator): named schema aliases that never shadow a global, request fields with a
// `default` kept optional, and the operation index built from the bundles.
import { describe, expect, it } from 'vitest';
import { generateOperationTable, generateTypes, generateTypesIndex } from '../../src/codegen/index.ts';

const header = (version: string) => ({
  name: 'X-Service-API-Version',
  in: 'header',
  required: true,
  schema: { type: 'string', enum: [version], default: version },
});
const op = (version: string) => ({ parameters: [header(version)], responses: { '200': { description: 'OK' } } });
const doc = (version: string, paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 'test', version },
  paths,
  components: { schemas },
});

describe('generateTypes', () => {
  it('exports an alias per schema, prefixing names of globals, and strips the version suffix', async () => {
    const out = await generateTypes(
      '2023-02-10',
      doc(
        '2023-02-10',
        {},
        {
          Ticket: { type: 'object' },
          Location: { type: 'object' },
          Comment: { type: 'object' },
          Error: { type: 'object' },
          Record: { type: 'object' },
          Response: { type: 'object' },
          components: { type: 'object' },
          SubscriptionV20230210: { type: 'object' },
          ThingV20240401: { type: 'object' },
        },
      ),
    );
    const aliases = out.slice(out.indexOf('// Named aliases'));
    expect(aliases).toContain("export type Ticket = components['schemas']['Ticket'];");
    for (const name of ['Location', 'Comment', 'Error', 'Record', 'Response']) {
      expect(aliases).toContain(`export type Schema${name} = components['schemas']['${name}'];`);
      expect(aliases).not.toContain(`export type ${name} =`);
    }
    expect(aliases).toContain("export type SchemaComponents = components['schemas']['components'];");
    expect(aliases).toContain("export type Subscription = components['schemas']['SubscriptionV20230210'];");
    expect(aliases).not.toContain('export type Thing =');
  });

  it('keeps request fields with a default optional', async () => {
    const out = await generateTypes(
      '2023-02-10',
      doc(
        '2023-02-10',
        {},
        {
          Update: { type: 'object', properties: { enable_export: { type: 'boolean', default: false } } },
        },
      ),
    );
    expect(out).toMatch(/enable_export\?: boolean;/);
  });
});

describe('generateOperationTable and generateTypesIndex', () => {
  const documents = new Map([
    ['2024-04-01', doc('2024-04-01', { '/a/': { get: op('2024-04-01'), patch: op('2024-04-01') } })],
    ['2023-02-10', doc('2023-02-10', { '/a/': { get: op('2023-02-10') }, '/b/': { post: op('2023-02-10') } })],
    ['unstable', doc('unstable', { '/a/': { put: op('unstable') } })],
  ] as const);

  it('lists the versions of each operation, the first serving one as default', () => {
    const out = generateOperationTable(documents);
    expect(out).toContain("export const VERSION_HEADER = 'X-Service-API-Version';");
    expect(out).toContain("'GET /a/': ['2024-04-01', '2023-02-10'],");
    expect(out).toContain("'POST /b/': ['2023-02-10'],");
    expect(out).toContain("'PUT /a/': ['unstable'],");
    expect(generateTypesIndex(documents)).toContain(
      "    get: Paths_2024_04_01['/a/']['get'];\n    patch: Paths_2024_04_01['/a/']['patch'];\n    put: Paths_unstable['/a/']['put'];",
    );
  });

  it('refuses an operation without the version header of its bundle', () => {
    const broken = new Map([['unstable', doc('unstable', { '/a/': { get: op('2024-04-01') } })]] as const);
    expect(() => generateOperationTable(broken)).toThrow(
      'unstable: get operation without one version header parameter',
    );
  });
});
