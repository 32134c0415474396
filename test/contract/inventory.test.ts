// Each version bundle holds exactly the operations spec §9 lists for it, with the version header,
// scopes, shared 401 and the parameter encodings the spec asks for.
import { describe, expect, it } from 'vitest';
import { allOperations, loadBundle, operationsOf, ROOT, VERSIONS } from '../helpers/bundles.ts';
import { RECORDED_SUCCESS, SPEC_OPERATIONS, SPEC_SCOPES } from './inventory.ts';

const VERSION_HEADER = 'x-service-api-version';

describe.each(VERSIONS)('bundle %s', (version) => {
  const expected = SPEC_OPERATIONS.filter((op) => op.versions.includes(version));
  const actual = operationsOf(version);

  it('holds exactly the operations §9 lists for this version', () => {
    const key = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;
    expect(actual.map(key).sort()).toEqual(expected.map(key).sort());
  });

  it.each(expected)('§$section $method $path: operationId, version header, scopes, 401', (spec) => {
    const found = actual.find((o) => o.method === spec.method && o.path === spec.path);
    expect(found, `${spec.method} ${spec.path} missing`).toBeDefined();
    const { operation, parameters } = found ?? { operation: {}, parameters: [] };
    expect(operation.operationId).toBe(spec.operationId);
    expect(operation.summary).toMatch(/\S/);
    expect(operation.description).toMatch(/\S/);
    expect(operation.tags?.length).toBeGreaterThan(0);

    const headers = parameters.filter((p) => p.in === 'header' && p.name.toLowerCase() === VERSION_HEADER);
    expect(headers).toHaveLength(1);
    expect(headers[0]).toMatchObject({ required: true, schema: { enum: [version], default: version } });

    // Two scopes are alternatives: one security requirement per scope.
    expect(operation.security).toEqual(spec.scopes.map((scope) => ({ oauth2: [scope] })));
    expect(operation.responses['401']).toBeDefined();
    const success = Object.keys(operation.responses).filter((code) => /^2\d\d$/.test(code));
    expect(success).toEqual(['200', ...(RECORDED_SUCCESS[spec.operationId] ?? [])]);
  });
});

describe('security scheme', () => {
  it.each(VERSIONS)('%s: OAuth 2.0 authorization code flow lists and describes every scope of §5', (version) => {
    const scheme = loadBundle(version).components.securitySchemes.oauth2;
    expect(scheme.type).toBe('oauth2');
    const scopes = scheme.flows.authorizationCode.scopes as Record<string, string>;
    expect(Object.keys(scopes).sort()).toEqual([...SPEC_SCOPES].sort());
    for (const description of Object.values(scopes)) expect(description.length).toBeGreaterThan(10);
  });
});

describe('parameters', () => {
  const operations = allOperations();

  it('array query filters are form-encoded and exploded (status=a&status=b)', () => {
    const arrays = operations.flatMap((o) =>
      o.parameters.filter((p) => p.in === 'query' && [p.schema?.type].flat().includes('array')),
    );
    expect(arrays.length).toBeGreaterThan(10);
    for (const p of arrays)
      expect({ name: p.name, style: p.style, explode: p.explode }).toEqual({
        name: p.name,
        style: 'form',
        explode: true,
      });
  });

  it('every parameter is described, typed and exemplified; date filters are format date (YYYY-MM-DD)', () => {
    for (const o of operations) {
      for (const p of o.parameters) {
        const at = `${o.version} ${o.operationId} ${p.in} ${p.name}`;
        expect(p.description, at).toMatch(/\S/);
        expect(p.schema?.type, at).toBeDefined();
        expect(p.example, at).toBeDefined();
        if (p.in === 'query' && /date/.test(p.name))
          expect(p.schema, at).toMatchObject({ type: 'string', format: 'date' });
      }
    }
  });

  it('array query filters document their encoding with their own name (name=a&name=b)', () => {
    for (const o of operations) {
      for (const p of o.parameters.filter((x) => x.in === 'query' && x.schema?.type === 'array')) {
        expect(p.description, `${o.operationId} ${p.name}`).toMatch(/repeated\s+parameters/);
        expect(p.description, `${o.operationId} ${p.name}`).toMatch(/array\s+encoding/);
        expect(p.description, `${o.operationId} ${p.name}`).toContain(`\`${p.name}=`);
      }
    }
  });

  it('list operations take a string cursor and path ids are integers', () => {
    for (const o of operations) {
      const path = o.parameters.filter((p) => p.in === 'path');
      for (const p of path) expect(p.schema.type).toBe(p.name === 'number' ? 'string' : 'integer');
      if (o.operation.operationId.startsWith('list')) {
        expect(o.parameters.find((p) => p.name === 'cursor')?.schema.type, `${o.path} cursor`).toBe('string');
      }
    }
  });

  it('the version header name is written in exactly one source file', async () => {
    const { execFileSync } = await import('node:child_process');
    // Hand-written: the contract's source, the Redocly config, every script and everything shipped.
    // The only other file naming it is generated from the bundles (src/contract/operations.generated.ts).
    const files = execFileSync(
      'grep',
      ['-rli', 'X-Service-API-Version', 'openapi/', 'redocly.yaml', 'scripts/', 'src/'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(files.trim().split('\n').sort()).toEqual([
      'openapi/components/parameters/ApiVersionHeader.yaml',
      'src/contract/operations.generated.ts',
    ]);
  });

  it.each(VERSIONS)('%s: every operation uses the one shared version header parameter of its version', (version) => {
    const refs = new Set(
      operationsOf(version).flatMap(({ operation }) =>
        (operation.parameters ?? [])
          .map((p: { $ref?: string }) => p.$ref)
          .filter((ref: string | undefined) => ref?.startsWith('#/components/parameters/ApiVersion')),
      ),
    );
    expect([...refs]).toEqual([`#/components/parameters/ApiVersion-${version}`]);
    for (const { operationId, parameters } of operationsOf(version)) {
      const headers = parameters.filter((p) => p.in === 'header');
      expect(headers, operationId).toHaveLength(1);
    }
  });
});
