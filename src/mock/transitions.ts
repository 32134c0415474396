/**
 * The mock's state table, in one place: which states each write accepts (docs/mock.md "State
 * table": the spec shows no transitions, so this is the mock's behaviour, not the platform's). A
 * write whose record is in a state its row does not accept is refused with 422 naming `path.id` (or
 * `path.number`) and the state found; a fulfillment order's `supported_actions` is derived from the
 * same rows, so it always agrees with what the writes accept.
 */
import type { Rec } from './model/index.ts';

export interface Transition {
  /** The write (operationId). */
  operationId: string;
  /** Its name in a fulfillment order's `supported_actions`, when it has one. */
  action?: string;
  /** Where it applies, for the docs. */
  accepts: string;
  /** Why `record` cannot take this write now (the state found), or undefined when it can. */
  refuses(record: Rec): string | undefined;
}

const DONE = new Set(['closed', 'canceled']);

const fulfillmentOrderOpen = (record: Rec): string | undefined => {
  if (DONE.has(record.status)) return `has status ${record.status}`;
  if (!Array.isArray(record.line_items) || record.line_items.length === 0) return 'has no line items left';
  return undefined;
};

export const TRANSITIONS: readonly Transition[] = [
  {
    operationId: 'renewSubscription',
    accepts: 'subscription `status` active, past_due or retrying',
    refuses: (r) =>
      r.status === 'canceled' || r.status === 'paused'
        ? `has status ${r.status}; only an active, past_due or retrying subscription renews`
        : undefined,
  },
  {
    operationId: 'retrySubscription',
    accepts: 'subscription `status` past_due or retrying (with an unpaid order)',
    refuses: (r) =>
      r.status === 'past_due' || r.status === 'retrying'
        ? undefined
        : `has status ${r.status}; only a past_due or retrying subscription has a payment to retry`,
  },
  {
    operationId: 'moveFulfillmentOrder',
    action: 'move',
    accepts: 'fulfillment order `status` not closed or canceled, with line items',
    refuses: fulfillmentOrderOpen,
  },
  {
    operationId: 'sendFulfillmentRequest',
    action: 'request_fulfillment',
    accepts: 'fulfillment order `status` not closed or canceled, `request_status` pending, with line items',
    refuses: (r) =>
      fulfillmentOrderOpen(r) ??
      (r.request_status === 'pending'
        ? undefined
        : `has request_status ${r.request_status}; a fulfillment request needs pending`),
  },
  {
    operationId: 'acceptCancellationRequest',
    accepts: 'fulfillment order `status` not closed or canceled, `request_status` not cancel_accepted or closed',
    refuses: (r) =>
      DONE.has(r.status)
        ? `has status ${r.status}`
        : r.request_status === 'cancel_accepted' || r.request_status === 'closed'
          ? `has request_status ${r.request_status}; there is no cancellation left to accept`
          : undefined,
  },
  {
    operationId: 'captureTransaction',
    accepts: 'an `authorization` transaction with an amount left to capture',
    refuses: (r) =>
      r.type === 'authorization'
        ? undefined
        : `is a ${r.type}, not an authorization; only authorizations can be captured`,
  },
];

const BY_OPERATION = new Map(TRANSITIONS.map((t) => [t.operationId, t]));

/** The state refusal of `operationId` for `record` ("subscription 4 has status paused..."), if any. */
export function stateRefusal(operationId: string, record: Rec): string | undefined {
  return BY_OPERATION.get(operationId)?.refuses(record);
}

/** The `supported_actions` of a fulfillment order: the actions whose write accepts it now. */
export function supportedActions(record: Rec): string[] {
  return TRANSITIONS.filter((t) => t.action !== undefined && t.refuses(record) === undefined).map(
    (t) => t.action as string,
  );
}
