/**
 * A subscription line as a version whose lines nest a `product` and a `stockrecord` shows it (read
 * from the version's example, never from its name), made from the stored flat line and its
 * product's stock record: the view of ./subscriptions.ts.
 */
import type { Bundle } from '../../contract/index.ts';
import { productFrom } from './catalogue.ts';
import { exampleOf } from './templates.ts';
import type { AnyRecord } from './types.ts';

/** The nested line template of a bundle whose subscription lines nest (else undefined), cached. */
const nestedLines = new WeakMap<Bundle, AnyRecord | null>();
export function nestedLineTemplate(bundle: Bundle): AnyRecord | undefined {
  if (!nestedLines.has(bundle)) {
    const serves = bundle.operations.some((o) => o.operationId === 'listSubscriptions');
    const line = serves ? exampleOf(bundle, 'listSubscriptions').results?.[0]?.lines?.[0] : undefined;
    nestedLines.set(bundle, line && typeof line.stockrecord === 'object' ? line : null);
  }
  return nestedLines.get(bundle) ?? undefined;
}

/** A stock record's product id: a line's stock record is the first one of its product (by this index). */
export const productIdOf = (stockrecord: AnyRecord): unknown => stockrecord.product?.id;

/** A subscription line with nested product and stock record, from the flat fields and the product's stock record. */
export function nestedLine(
  line: AnyRecord,
  template: AnyRecord,
  currency: string,
  stock: AnyRecord | undefined,
): AnyRecord {
  const image = line.product_image
    ? [
        {
          ...(template.product?.images?.[0] ?? {}),
          attachment: line.product_image,
          src: line.product_image,
          file_name: String(line.product_image).split('/').pop(),
          caption: line.product_title,
          display_order: 0,
          id: line.id,
        },
      ]
    : [];
  // Shallow copies of the example's objects: a view is serialized, never changed, so what it shares
  // with the template is never written (a structuredClone per line was most of a page's view time).
  const product = {
    ...template.product,
    categories: productFrom(line).categories.map((c) => ({ id: c.id, name: c.name, slug: c.slug })),
    id: line.product_id,
    title: line.product_title,
    url: line.product_url,
    images: image,
  };
  const stockrecord = {
    ...template.stockrecord,
    id: stock?.id ?? line.variant_id ?? line.id,
    partner_sku: line.sku,
    price: line.price,
    price_retail: line.price,
    price_currency: currency,
    num_in_stock: stock?.num_in_stock ?? 0,
    num_allocated: stock?.num_allocated ?? 0,
    low_stock_threshold: stock?.low_stock_threshold ?? null,
  };
  return { id: line.id, metadata: line.metadata, price: line.price, quantity: line.quantity, product, stockrecord };
}
