/**
 * Fulfillment order writes: move, fulfillment request, cancellation accept (the state table's rows:
 * ../transitions.ts). Every fulfillment order they write gets its `supported_actions` from the
 * state table, so they agree with what the writes accept next.
 */
import type { Rec } from '../model/index.ts';
import type { WriteDecl, WriteResult } from '../resources.ts';
import { supportedActions } from '../transitions.ts';
import { clone, refuse } from './common.ts';

/** A fulfillment order as stored: its `supported_actions` derived from its state. */
export const withActions = (record: Rec): Rec => Object.assign(record, { supported_actions: supportedActions(record) });

const copyOf = (source: Rec, id: number, now: string, lines: Rec[]): Rec => ({
  ...clone(source),
  id,
  created_at: now,
  updated_at: now,
  line_items: lines.map((line, k) => ({ ...clone(line), id: id * 10 + k, fulfillment_order_id: id })),
});

/** The line items a request names (`[{id, quantity?}]`), or a refusal naming the first unknown one. */
function selectLines(
  record: Rec,
  items: unknown,
): { ok: true; selected: Rec[]; rest: Rec[] } | { ok: false; result: WriteResult } {
  const lines = (record.line_items ?? []) as Rec[];
  if (!Array.isArray(items) || items.length === 0) return { ok: true, selected: lines, rest: [] };
  const selected: Rec[] = [];
  for (const [index, item] of items.entries()) {
    const line = lines.find((l) => l.id === (item as Rec)?.id);
    if (!line) {
      const field = `body.fulfillment_order_line_items[${index}].id`;
      const message = `fulfillment order ${record.id} has no line item ${JSON.stringify((item as Rec)?.id)} (its line items: ${lines.map((l) => l.id).join(', ')})`;
      return { ok: false, result: refuse(field, 'exists', message) };
    }
    if (!selected.includes(line)) selected.push(line);
  }
  return { ok: true, selected, rest: lines.filter((l) => !selected.includes(l)) };
}

export const FULFILLMENT_ORDER_WRITES: Record<string, WriteDecl> = {
  moveFulfillmentOrder: {
    kind: 'write',
    collection: 'fulfillmentOrders',
    param: 'id',
    effect:
      'Copies the line items named in `fulfillment_order_line_items` (by `id`; all when absent) to a new fulfillment order (next id) at `new_location_id` (`status` open, `request_status` pending); they leave the original, which is closed when none is left. Unknown location or line item, or the location it is already at → 422 naming it.',
    references: (state, body) => {
      if (state.get('locations', body.new_location_id)) return undefined;
      const ids = state
        .list('locations')
        .map((l) => l.id)
        .join(', ');
      return refuse(
        'body.new_location_id',
        'exists',
        `no location ${body.new_location_id} (the mock's locations: ${ids})`,
      );
    },
    run: ({ state, record, body, now }) => {
      // references() found it.
      const location = state.get('locations', body.new_location_id) as Rec;
      if (record.assigned_location?.id === location.id) {
        return refuse(
          'body.new_location_id',
          'state',
          `fulfillment order ${record.id} is already at location ${location.id}`,
        );
      }
      const picked = selectLines(record, body.fulfillment_order_line_items);
      if (!picked.ok) return picked.result;
      const moved = copyOf(record, state.nextKey('fulfillmentOrders'), now, picked.selected);
      Object.assign(moved, {
        assigned_location: clone(location),
        status: 'open',
        request_status: 'pending',
        merchant_requests: [],
      });
      record.line_items = picked.rest;
      record.updated_at = now;
      if (picked.rest.length === 0) record.status = 'closed';
      return {
        ok: true,
        body: { moved_fulfillment_order: withActions(moved), original_fulfillment_order: withActions(record) },
        shape: 'values',
        changes: [
          ['fulfillmentOrders', record],
          ['fulfillmentOrders', moved],
        ],
      };
    },
  },
  sendFulfillmentRequest: {
    kind: 'write',
    collection: 'fulfillmentOrders',
    param: 'id',
    effect:
      'All lines (no `fulfillment_order_line_items`, or all of them): the order itself becomes `requested`; original = requested = it, unrequested = null. Some lines: they move to a new, `requested` fulfillment order (next id), the rest stays pending in the original (= unrequested). The message is recorded in `merchant_requests`.',
    run: ({ state, record, body, now }) => {
      const picked = selectLines(record, body?.fulfillment_order_line_items);
      if (!picked.ok) return picked.result;
      const request = { message: body?.message ?? null, notify: body?.notify ?? false, type: 'fulfill_request' };
      record.updated_at = now;
      if (picked.rest.length === 0) {
        record.request_status = 'requested';
        record.merchant_requests = [...(record.merchant_requests ?? []), request];
        withActions(record);
        const parts = {
          original_fulfillment_order: record,
          requested_fulfillment_order: record,
          unrequested_fulfillment_order: null,
        };
        return { ok: true, body: parts, shape: 'values', changes: [['fulfillmentOrders', record]] };
      }
      const requested = copyOf(record, state.nextKey('fulfillmentOrders'), now, picked.selected);
      Object.assign(requested, { request_status: 'requested', merchant_requests: [request] });
      record.line_items = picked.rest;
      const parts = {
        original_fulfillment_order: withActions(record),
        requested_fulfillment_order: withActions(requested),
        unrequested_fulfillment_order: record,
      };
      return {
        ok: true,
        body: parts,
        shape: 'values',
        changes: [
          ['fulfillmentOrders', record],
          ['fulfillmentOrders', requested],
        ],
      };
    },
  },
  acceptCancellationRequest: {
    kind: 'write',
    collection: 'fulfillmentOrders',
    param: 'id',
    effect:
      'Sets `request_status` cancel_accepted and `status` canceled (the contract has no operation sending a cancellation request, so the mock accepts one on any fulfillment order the state table lets it).',
    run: ({ record, now }) => {
      Object.assign(record, { request_status: 'cancel_accepted', status: 'canceled', updated_at: now });
      return { ok: true, body: withActions(record), changes: [['fulfillmentOrders', record]] };
    },
  },
};
