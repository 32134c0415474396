/** The store's settings (`GET /store/`): a singleton, the contract's example as it is. */
import type { CollectionDecl } from './types.ts';

export const store: CollectionDecl = {
  name: 'store',
  key: 'id',
  singular: 'store',
  schema: { component: 'Store' },
  operations: { getStore: { kind: 'get' } },
  relations: [],
  seed: {
    count: 1,
    record: (_, { templates }) => (templates.of('getStore') as unknown as Record<string, unknown>[])[0] ?? {},
  },
};
