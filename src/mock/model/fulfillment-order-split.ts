/**
 * A fulfillment order split in two by the line items a request names (a move, a fulfillment
 * request of some lines): the lines picked, those left, and the new fulfillment order holding the
 * picked ones. The writes of ./fulfillment-orders.ts use it.
 */
import { clone, refuse } from '../writes/common.ts';
import type { StoredFulfillmentOrder } from './records.ts';
import type { AnyRecord, WriteResult } from './types.ts';

type LineItem = StoredFulfillmentOrder['line_items'][number];

/** A new fulfillment order `id`: `source` holding `lines` (renumbered under it), made `now`. */
export const copyOf = (
  source: StoredFulfillmentOrder,
  id: number,
  now: string,
  lines: LineItem[],
): StoredFulfillmentOrder => ({
  ...clone(source),
  id,
  created_at: now,
  updated_at: now,
  line_items: lines.map((line, k) => ({ ...clone(line), id: id * 10 + k, fulfillment_order_id: id })),
});

/** The line items a request names (`[{id, quantity?}]`), or a refusal naming the first unknown one. */
export function selectLines(
  record: StoredFulfillmentOrder,
  items: unknown,
): { ok: true; selected: LineItem[]; rest: LineItem[] } | { ok: false; result: WriteResult } {
  const lines = record.line_items ?? [];
  if (!Array.isArray(items) || items.length === 0) return { ok: true, selected: lines, rest: [] };
  const selected: LineItem[] = [];
  for (const [index, item] of items.entries()) {
    const line = lines.find((l) => l.id === (item as AnyRecord)?.id);
    if (!line) {
      const field = `body.fulfillment_order_line_items[${index}].id`;
      const message = `fulfillment order ${record.id} has no line item ${JSON.stringify((item as AnyRecord)?.id)} (its line items: ${lines.map((l) => l.id).join(', ')})`;
      return { ok: false, result: refuse(field, 'exists', message) };
    }
    if (!selected.includes(line)) selected.push(line);
  }
  return { ok: true, selected, rest: lines.filter((l) => !selected.includes(l)) };
}
