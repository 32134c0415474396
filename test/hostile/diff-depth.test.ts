/**
 * The breaking-change guard compares `allOf` chains at any depth (issue #21): a type change at the
 * end of a chain 18, 20 or 200 deep is found; a chain deeper than MAX_DEPTH, or an `allOf` that
 * contains itself, is refused naming the depth or the loop (DiffInputError: exit 3), never "no
 * changes". On main before #21 the 18 and 20 rows found nothing (the merge stopped at depth 16) and
 * the 300 row compared silently. In-process on this repository's newest bundle (fast); the CLI's
 * exit code for DiffInputError is covered by test/hostile/diff.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDocuments, DiffInputError, type Json, MAX_DEPTH } from '../../src/guard/index.ts';
import { ROOT } from './fixtures.ts';

const BUNDLE: Json = JSON.parse(readFileSync(join(ROOT, 'generated', 'openapi', '2024-04-01.json'), 'utf8'));

/** The bundle with `Store.chain`: an allOf chain `length` deep whose last link has `leaf: <type>`. */
function withAllOfChain(length: number, leafType: string): Json {
  const bundle = structuredClone(BUNDLE);
  const schemas = bundle.components.schemas;
  for (let i = 0; i < length; i++) schemas[`Link${i}`] = { allOf: [{ $ref: `#/components/schemas/Link${i + 1}` }] };
  schemas[`Link${length}`] = { type: 'object', properties: { leaf: { type: leafType } }, required: ['leaf'] };
  schemas.Store.properties.chain = { $ref: '#/components/schemas/Link0' };
  return bundle;
}

describe('allOf chains of any depth', () => {
  it.each([18, 20, 64, 200])('finds a type change at the end of a chain %i deep', (depth) => {
    const changes = compareDocuments(withAllOfChain(depth, 'string'), withAllOfChain(depth, 'integer'));
    expect(changes).toContainEqual(
      expect.objectContaining({ operation: 'GET /store/', rule: 'type-changed', severity: 'breaking' }),
    );
  });

  it.each([
    [
      'a chain deeper than MAX_DEPTH',
      () => withAllOfChain(MAX_DEPTH + 44, 'integer'),
      `nested deeper than ${MAX_DEPTH}`,
    ],
    [
      'an allOf that contains itself',
      () => {
        const bundle = withAllOfChain(3, 'integer');
        bundle.components.schemas.Link3 = { allOf: [{ $ref: '#/components/schemas/Link1' }] };
        return bundle;
      },
      'allOf loop',
    ],
  ])('refuses %s naming it, never "no changes"', (_, head, message) => {
    expect(() => compareDocuments(withAllOfChain(MAX_DEPTH + 44, 'string'), head())).toThrow(DiffInputError);
    expect(() => compareDocuments(BUNDLE, head())).toThrow(message);
  });
});
