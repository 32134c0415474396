// Type tests of the typed reads over the store (src/mock/model/records.ts): a collection the model
// declares reads as its record type, a name known only at run time as AnyRecord, and a collection
// declaration must take the record type the map names for it. Checked by `tsc -p .`.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnyRecord,
  DeclaredCollection,
  RecordReader,
  StoredFulfillmentOrder,
  StoredOrder,
  StoredTransaction,
} from '../../src/mock/model/index.ts';

declare const reader: RecordReader;
declare const name: string;

describe('the typed reader', () => {
  it('reads a declared collection as its records', () => {
    expectTypeOf(reader.get('orders', '1001')).toEqualTypeOf<StoredOrder | undefined>();
    expectTypeOf(reader.list('transactions')).toEqualTypeOf<readonly StoredTransaction[]>();
    expectTypeOf(reader.list('fulfillmentOrders')[0]).toEqualTypeOf<StoredFulfillmentOrder | undefined>();
  });

  it('reads a collection named at run time as AnyRecord', () => {
    expectTypeOf(reader.get(name, 1)).toEqualTypeOf<AnyRecord | undefined>();
  });

  it('refuses a declaration whose name is not its own', () => {
    // @ts-expect-error: the orders' declaration is named 'orders'.
    const wrong: Pick<DeclaredCollection<'orders'>, 'name'> = { name: 'transactions' };
    expectTypeOf(wrong.name).toEqualTypeOf<'orders'>();
  });
});
