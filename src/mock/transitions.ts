/**
 * The mock's state table (docs/mock.md "State table": the spec shows no transitions, so this is the
 * mock's behaviour, not the platform's), gathered from the writes' rows in the collection files
 * (./model/<collection>.ts, `state`). A write whose record is in a state its row does not accept
 * is refused with 422 naming `path.id` (or `path.number`) and the state found (stages/store-rules.ts); a
 * fulfillment order's `supported_actions` is derived from the same rows
 * (./model/fulfillment-orders.ts).
 */
import type { StateRow } from './model/index.ts';
import { OPERATION_DECLS } from './resources.ts';

export { supportedActions } from './model/fulfillment-orders.ts';

/** A row of the state table, with the write (operationId) it belongs to. */
export interface Transition extends StateRow {
  operationId: string;
}

export const TRANSITIONS: readonly Transition[] = Object.entries(OPERATION_DECLS).flatMap(([operationId, decl]) =>
  decl.kind === 'write' && decl.state ? [{ operationId, ...decl.state }] : [],
);
