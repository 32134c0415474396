/**
 * Stage store: the operation's declaration (../resources.ts) against the caller's state. A list
 * filters and pages its collection (a parent that does not exist: 404); a read by key finds its
 * record (404 naming `path.<param>`); a write runs on a private copy of its record and yields the
 * records it changes. A write's store rules, after the contract's (stage validation): the addressed
 * record exists (404), the records the request names exist (422 naming the body field), the state
 * table accepts the record (422 naming `path.<param>`), the write's own rules, then the limits. Nothing is stored
 * here: the answer stage commits a write once its view is checked.
 */

import { fieldRefusal, IGNORED_FILTERS_HEADER } from '../../http/index.ts';
import { matchesAll } from '../filters.ts';
import { type AnyRecord, collectionOf, sortKey } from '../model/index.ts';
import { type Cursor, encodeCursor, pageOf } from '../pagination.ts';
import type { GetDecl, ListDecl, WriteDecl } from '../resources.ts';
import { checkLimits } from '../writes/limit-check.ts';
import type { Authorized, Checked, Incoming, Parsed, RawResponse, Routed, Stage, Stored } from './context.ts';

type Storing = Incoming & Routed & Authorized & Parsed & Checked & Stored;

import { refuseRouted } from './respond.ts';

/** The record a request addresses: its collection, the path parameter and the key it holds. */
interface Addressed {
  collection: string;
  param: string;
  key: unknown;
}

/** 404 naming the path parameter: no such record (or, with `what`, what the key leads to is missing). */
const notFound = (context: Storing, { collection, param, key }: Addressed, what?: string) =>
  refuseRouted(
    context,
    fieldRefusal(
      'notFound',
      {
        field: `path.${param}`,
        rule: 'exists',
        message: what ?? `No ${collectionOf(collection).singular} with ${param} ${key}.`,
      },
      context.problem,
    ),
  );

/** The URL of another page: the request's own, its cursor replaced. */
function pageLink(context: Storing, cursor: Cursor | undefined): string | null {
  if (!cursor) return null;
  const params = new URLSearchParams(context.searchParams);
  params.delete('cursor');
  params.append('cursor', encodeCursor(cursor));
  return `${context.raw.origin}${context.pathname}?${params}`;
}

function list(context: Storing, decl: ListDecl): RawResponse | undefined {
  const state = context.core.states.read(context.token);
  let records = state.list(decl.collection);
  if (decl.parent) {
    const parentKey = context.path[decl.parent.param] as string | number;
    const owns = decl.parent.owns;
    records = records.filter((r) => owns(r, parentKey));
    // The parent record of a nested list does not exist (a record naming it shows it does: a
    // recording may hold a subscription's transactions without the subscription).
    if (records.length === 0 && !state.get(decl.parent.collection, parentKey))
      return notFound(context, { collection: decl.parent.collection, param: decl.parent.param, key: parentKey });
  }
  const applied = decl.filters.filter((f) => context.query[f.param] !== undefined);
  if (applied.length > 0) {
    const kept: AnyRecord[] = [];
    for (const record of records) if (matchesAll(applied, record, context.query)) kept.push(record);
    records = kept;
  }
  const page = pageOf(records, (r) => sortKey(decl.collection, r), context.core.pageSize, context.cursor);
  const ignored = decl.notApplied.filter((name) => context.searchParams.has(name));
  context.result = {
    kind: 'list',
    collection: decl.collection,
    records: page.items,
    next: pageLink(context, page.next),
    previous: pageLink(context, page.previous),
    headers: ignored.length > 0 ? { [IGNORED_FILTERS_HEADER]: ignored.join(', ') } : {},
  };
  return undefined;
}

function get(context: Storing, decl: GetDecl): RawResponse | undefined {
  const state = context.core.states.read(context.token);
  if (!decl.param) {
    context.result = { kind: 'records', collection: decl.collection, records: state.list(decl.collection) };
    return undefined;
  }
  const key = context.path[decl.param] as string | number;
  const found = decl.lookup ? decl.lookup(state, key) : state.get(decl.collection, key);
  // No record with that key.
  if (!found) return notFound(context, { collection: decl.collection, param: decl.param, key });
  // The key exists but what it leads to does not (an order without a fulfillment).
  if ('missing' in found && typeof found.missing === 'string')
    return notFound(context, { collection: decl.collection, param: decl.param, key }, found.missing);
  // The record's own collection (an order's fulfillment is a fulfillment): its view applies.
  context.result = { kind: 'record', collection: decl.serves ?? decl.collection, record: found as AnyRecord };
  return undefined;
}

function write(context: Storing, decl: WriteDecl): RawResponse | undefined {
  const state = context.core.states.read(context.token);
  const key = decl.param ? (context.path[decl.param] as string | number) : '';
  let record: AnyRecord = {};
  if (decl.param) {
    const found = state.get(decl.collection, key);
    // Writing to a record that does not exist.
    if (!found) return notFound(context, { collection: decl.collection, param: decl.param, key });
    context.addressed = found;
    const unknown = decl.references?.(state, context.body ?? {});
    // The request names a record that does not exist (checked before the addressed record's state).
    if (unknown)
      return refuseRouted(context, { ...unknown.refusal, body: { ...unknown.refusal.body, ...context.problem } });
    const refused = decl.state?.refuses(found);
    // The state table: the record is not in a state this write accepts.
    if (refused) {
      const message = `path.${decl.param}: ${collectionOf(decl.collection).singular} ${key} ${refused}`;
      return refuseRouted(
        context,
        fieldRefusal('refusedByStore', { field: `path.${decl.param}`, rule: 'state', message }, context.problem),
      );
    }
    record = structuredClone(found);
  }
  const result = decl.run({
    state,
    record,
    key,
    body: context.body ?? {},
    bodyProperties: context.target.validator.bodyProperties,
    now: context.core.timestamp(),
    seed: context.core.seed,
    limits: context.core.limits,
  });
  // The state table (or the store's own rules) refuses the write.
  if (!result.ok)
    return refuseRouted(context, { ...result.refusal, body: { ...result.refusal.body, ...context.problem } });
  const limited = checkLimits(state, result.changes, context.core.limits);
  // The write would take the token's state over a limit.
  if (limited) return refuseRouted(context, { ...limited, body: { ...limited.body, ...context.problem } });
  context.result = {
    kind: 'write',
    collection: decl.collection,
    body: result.body,
    shape: result.shape ?? 'record',
    changes: result.changes,
  };
  return undefined;
}

export const store: Stage<Incoming & Routed & Authorized & Parsed & Checked, Stored> = {
  name: 'store',
  run: (context) => {
    const { decl } = context.target;
    if (decl.kind === 'list') return list(context, decl);
    if (decl.kind === 'get') return get(context, decl);
    return write(context, decl);
  },
};
