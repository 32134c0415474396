/** The store's settings (`GET /store/`): a singleton, the contract's example as it is. */
import type { StoredStore } from './records.ts';
import type { DeclaredCollection } from './types.ts';

export const store: DeclaredCollection<'store'> = {
  name: 'store',
  key: 'id',
  singular: 'store',
  schema: { component: 'Store' },
  operations: { getStore: { kind: 'get' } },
  relations: [],
  seed: {
    count: 1,
    // `GET /store/` answers with a list of Store (the first is the store); none without the operation.
    record: (_, { templates }) => (templates.of('getStore') as unknown as StoredStore[])[0] ?? ({} as StoredStore),
  },
};
