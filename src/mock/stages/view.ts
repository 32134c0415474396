/**
 * Stage view: the records of the answer as the version shows them (each collection's declared view,
 * ../model), then projected on the version's response schema (only the properties it declares). A
 * write's answer is validated against that schema: a change that would leave a record the contract
 * does not allow is refused (422) and nothing is stored.
 */
import { collectionOf, type Rec, type ViewContext } from '../model/index.ts';
import { refusal } from '../problems.ts';
import { summarize } from '../refusals.ts';
import type { RequestContext, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

/** A record of `collection` as the context's version shows it. */
export function viewOf(context: RequestContext, collection: string, record: Rec): Rec {
  const decl = collectionOf(collection);
  if (!decl.view) return record;
  const state = context.core.states.read(context.token);
  const pending = new Map<string, Rec>();
  if (context.result?.kind === 'write')
    for (const [c, r] of context.result.changes) pending.set(`${c} ${r[collectionOf(c).key]}`, r);
  const view: ViewContext = {
    list: (name) => state.list(name),
    get: (name, key) => pending.get(`${name} ${key}`) ?? state.get(name, key),
    bundle: context.target.bundle,
  };
  return decl.view(record, view);
}

function shownOf(context: RequestContext): unknown {
  const result = context.result;
  if (!result) return undefined;
  const one = (record: Rec) => viewOf(context, result.collection, record);
  switch (result.kind) {
    case 'list':
      return { next: result.next, previous: result.previous, results: result.records.map(one) };
    case 'records':
      return result.records.map(one);
    case 'record':
      return one(result.record);
    case 'write': {
      const body = result.body as Rec;
      if (result.shape === 'as-is' || !body || typeof body !== 'object') return body;
      if (result.shape === 'record') return one(body);
      return Object.fromEntries(
        Object.entries(body).map(([name, value]) => [name, value && typeof value === 'object' ? one(value) : value]),
      );
    }
  }
}

export const view: Stage = (context) => {
  context.shown = context.target.project(shownOf(context));
  if (context.result?.kind !== 'write') return undefined;
  const broken = context.target.validator.checkResponse(context.shown);
  if (broken.length === 0) return undefined;
  // The write would leave a record the contract does not allow: nothing is stored.
  const detail = `The change would leave a record the contract does not allow: ${summarize(broken)}. Nothing was changed.`;
  return refuseRouted(context, refusal('invalidRequest', detail, broken, context.problem));
};
