/**
 * The order arithmetic of the mock (its own: the spec shows none), shared by the seed functions and
 * the writes: an order line priced from the catalogue (./catalogue.ts), what an order's payments
 * paid, its totals (VAT 19% included) and payment status, a compact payment, line ids.
 */
import type { DefaultSchemas } from '../../../generated/types/index.ts';
import { excl, money, type Product } from './catalogue.ts';
import type { StoredOrder } from './records.ts';
import type { AnyRecord } from './types.ts';

type OrderLine = DefaultSchemas['OrderLine'];
type TransactionCompact = DefaultSchemas['TransactionCompact'];

/** What an order line is of: `quantity` × `product`, its id, when it was added. */
export interface LineOf {
  product: Product;
  id: number;
  quantity: number;
  created: string;
}

/** An order line of `quantity` × `product` (seeded orders and add-line-items share it). */
export function orderLine(template: AnyRecord, { product, id, quantity, created }: LineOf): OrderLine {
  const incl = product.price;
  // A copy of an example line (the contract's examples satisfy their schema), every price field set.
  const line = structuredClone(template) as OrderLine;
  Object.assign(line, {
    id,
    created_at: created,
    updated_at: created,
    product_id: product.id,
    product_title: product.title,
    product_url: `https://shop.example.com/products/${product.slug}/`,
    product_image: `https://cdn.example.com/products/${product.slug}.jpg`,
    sku: product.sku,
    variant_id: product.variant_id,
    variant_title: product.variant_title,
    quantity,
    current_quantity: quantity,
    editable_quantity: quantity,
    fulfillable_quantity: quantity,
    price_incl_tax: money(incl),
    price_excl_tax: money(excl(incl)),
    original_price_incl_tax: money(incl),
    original_price_excl_tax: money(excl(incl)),
    total_discount: '0.00',
    original_total_discount: '0.00',
    total_cost: money(incl * quantity),
    unit_cost: money(incl),
    is_upsell: false,
    is_gift_card: false,
  });
  if (line.report_values && typeof line.report_values === 'object') {
    Object.assign(line.report_values, {
      price_incl_tax: money(incl),
      price_excl_tax: money(excl(incl)),
      original_price_incl_tax: money(incl),
      original_price_excl_tax: money(excl(incl)),
      total_cost: money(incl * quantity),
      total_discount: '0.00',
      original_total_discount: '0.00',
      unit_cost: money(incl),
    });
  }
  return line;
}

/** Transaction types that pay an order (an authorization only reserves the amount until captured). */
export const PAYING = new Set(['sale', 'capture']);

/** What an order's succeeded transactions paid: sales and captures, less refunds. */
export function paidOf(order: StoredOrder): number {
  let paid = 0;
  for (const t of order.transactions ?? []) {
    if (t.status !== 'succeeded') continue;
    if (PAYING.has(t.type)) paid += Number(t.amount);
    else if (t.type === 'refund') paid -= Number(t.amount);
  }
  return paid;
}

/**
 * An order's `payment_status` from what it still owes: `paid` when nothing is outstanding, `pending`
 * while some is (a partial payment included). Both are values the contract shows (`pending` the
 * spec's known value, `paid` its example's); the others the API may use are not shown.
 */
export function paymentStatusOf(outstanding: unknown): 'paid' | 'pending' {
  return Number(outstanding) > 0 ? 'pending' : 'paid';
}

/** The totals {@link retotal} sets on an order (decimal strings). */
export interface OrderTotals {
  total_incl_tax: string;
  total_excl_tax: string;
  total_tax: string;
  total_cost: string;
  total_outstanding: string;
}

/** Cents of a sum of amounts, so that totals add up exactly. */
const cents = (value: number): number => Math.round(value * 100);

/**
 * Recomputes an order's totals (the mock's arithmetic, prices with VAT included, as the contract's
 * example order adds up): lines at their current quantity, plus shipping, less the discount; the tax
 * is included minus excluded; `total_cost` sums the lines' cost; outstanding = total − paid (≥ 0);
 * `payment_status` follows outstanding ({@link paymentStatusOf}). Returns the totals it set.
 */
export function retotal(order: StoredOrder): OrderTotals {
  let incl = 0;
  let exclusive = 0;
  let cost = 0;
  for (const line of order.lines ?? []) {
    const quantity = Number(line.current_quantity ?? line.quantity) || 0;
    incl += cents(Number(line.price_incl_tax) * quantity);
    exclusive += cents(Number(line.price_excl_tax) * quantity);
    cost += cents(Number(line.total_cost) || 0);
  }
  const discount = cents(Number(order.total_discount) || 0);
  incl += cents(Number(order.shipping_incl_tax) || 0) - discount;
  exclusive += cents(Number(order.shipping_excl_tax) || 0) - Math.round(discount / 1.19);
  const totals = {
    total_incl_tax: money(incl / 100),
    total_excl_tax: money(exclusive / 100),
    total_tax: money((incl - exclusive) / 100),
    total_cost: money(cost / 100),
    total_outstanding: money(Math.max(0, incl - cents(paidOf(order))) / 100),
  };
  Object.assign(order, totals);
  // The status follows the money, so that no write leaves an order "paid" with something owed.
  order.payment_status = paymentStatusOf(totals.total_outstanding);
  if (order.report_values && typeof order.report_values === 'object') {
    const { total_outstanding: _, total_tax: __, ...reported } = totals;
    Object.assign(order.report_values, reported);
  }
  return totals;
}

/** A compact (order-embedded) `sale` transaction of `amount`. */
export function compactSale(template: AnyRecord, id: number, amount: string, created: string): TransactionCompact {
  // A copy of an example payment (the contract's examples satisfy their schema), its own fields set.
  const out = structuredClone(template) as TransactionCompact;
  Object.assign(out, { id, amount, date_created: created, status: 'succeeded', type: 'sale', parent_id: null });
  if (out.report_values) out.report_values = { ...out.report_values, amount };
  return out;
}

/** The id of an order's `k`-th line (0-based): unique in the store while an order holds under 1000 lines. */
export const lineId = (number: string, k: number): number => (Number(number) - 1000) * 1000 + k;
