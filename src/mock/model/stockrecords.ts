/** Stock records (`GET /stockrecords/{id}/`): one per product × location, cycling. */
import { at, day, PRODUCTS, type Product } from './catalogue.ts';
import { copyAtKey } from './example-records.ts';
import type { AnyRecord, DeclaredCollection } from './types.ts';

export const stockrecords: DeclaredCollection<'stockrecords'> = {
  name: 'stockrecords',
  key: 'id',
  singular: 'stock record',
  schema: { component: 'StockRecord' },
  operations: { getStockRecord: { kind: 'get', param: 'id' } },
  atExampleKey: (key, context) => [['stockrecords', copyAtKey(stockrecords, key, context)]],
  relations: [{ name: 'location', to: 'locations', keys: (r) => [r.location?.id] }],
  seed: {
    count: 45,
    record: (i, { prng, templates, store }) => {
      const product = PRODUCTS[(i - 1) % PRODUCTS.length] as Product;
      const locations = store.locations ?? [];
      const loc = locations[(i - 1) % locations.length] as AnyRecord;
      const inStock = prng.int(0, 300);
      const allocated = prng.int(0, Math.min(inStock, 40));
      return Object.assign(templates.recordOf('getStockRecord', 'StockRecord'), {
        id: i,
        sku: `${product.sku}-${loc.id}`,
        product: { id: product.id, name: product.title },
        location: structuredClone(loc),
        num_in_stock: inStock,
        num_allocated: allocated,
        net_stock_level: inStock - allocated,
        low_stock_threshold: 10,
        date_created: at(prng.int(0, 30) * day),
        date_updated: at(prng.int(31, 130) * day),
      });
    },
  },
};
