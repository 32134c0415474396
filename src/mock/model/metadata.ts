/** Metadata definitions 1..40, `object` cycling through its enum. */
import { assignDeclared } from '../writes/common.ts';
import { at, day, inTurn, METADATA_OBJECTS } from './catalogue.ts';
import { copyAtKey } from './example-records.ts';
import type { DeclaredCollection } from './types.ts';

export const metadata: DeclaredCollection<'metadata'> = {
  name: 'metadata',
  key: 'id',
  singular: 'metadata definition',
  schema: { component: 'MetadataDefinition' },
  operations: {
    updateMetadataDefinition: {
      kind: 'write',
      param: 'id',
      run: ({ record, body, bodyProperties, now }) => {
        assignDeclared(record, body, bodyProperties);
        record.updated_at = now;
        return { ok: true, body: record, changes: [['metadata', record]] };
      },
    },
  },
  atExampleKey: (key, context) => [['metadata', copyAtKey(metadata, key, context)]],
  relations: [],
  seed: {
    count: 40,
    record: (i, { prng, templates }) => {
      const created = at(prng.int(0, 140) * day);
      return {
        ...templates.recordOf('updateMetadataDefinition', 'MetadataDefinition'),
        id: i,
        key: `field_${i}`,
        name: `Field ${i}`,
        object: inTurn(METADATA_OBJECTS, i - 1),
        enable_export: i % 2 === 0,
        enable_filter: i % 3 === 0,
        created_at: created,
        updated_at: created,
      };
    },
  },
};
