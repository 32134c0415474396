/**
 * Stage memo: a list read again while its token state is unchanged (../page-memo.ts) is answered as
 * it was answered last, without checking its query, filtering its collection or building its page
 * again. Exact by its key: the version served, the origin of the page links and the request target
 * (path and query, as sent: the links repeat its query in its order) fix everything the validation,
 * store and view stages read besides the state (the engine's strict query and page size are the
 * state's engine's). Only a plain GET: `Prefer: code=` or `example=` is the examples stage's. The
 * view stage keeps each list answer ({@link rememberPage}); a hit sets what those stages would
 * have set (the coverage recorder and the request log read them) and answers.
 */
import { MEMO_ENTRY_BYTES, recall, remember } from '../page-memo.ts';
import { answer } from './answer.ts';
import type {
  Authorized,
  Checked,
  Incoming,
  Preferred,
  RawResponse,
  RequestContext,
  Routed,
  Stage,
  Stored,
  Viewed,
} from './context.ts';

type Memoizing = Incoming & Routed & Authorized & Preferred;

/** What a list answer left on the context, kept to be set again. */
interface Kept {
  target: Routed['target'];
  served: Routed['served'];
  path: Checked['path'];
  query: Checked['query'];
  cursor: Checked['cursor'];
  result: Stored['result'];
  shown: Viewed['shown'];
}

/** The memo's key of a plain GET of a list, else undefined (not kept, not looked for). */
function keyOf(context: Memoizing): string | undefined {
  const { method, target, preferences } = context;
  if (method !== 'GET' || target.decl.kind !== 'list') return undefined;
  if (preferences.code !== undefined || preferences.example !== undefined) return undefined;
  return `${context.version} ${context.raw.origin} ${context.raw.target}`;
}

export const memo: Stage<Memoizing> = {
  name: 'memo',
  run: (context): RawResponse | undefined => {
    const key = keyOf(context);
    if (key === undefined) return undefined;
    const kept = recall(context.core.states.read(context.token), key) as Kept | undefined;
    if (kept === undefined || kept.target !== context.target) return undefined;
    // A hit: the context as the validation, store and view stages would leave it, then the answer.
    const done = context as Memoizing & Partial<RequestContext>;
    done.served = kept.served;
    done.path = kept.path;
    done.query = kept.query;
    done.cursor = kept.cursor;
    done.result = kept.result;
    done.shown = kept.shown;
    return answer(done as RequestContext) as RawResponse;
  },
};

/** Keeps a list's answer for {@link memo}, counted in its state's memory estimate. */
export function rememberPage(context: Memoizing & Checked & Stored & Viewed, bodyBytes: number): void {
  const key = keyOf(context);
  if (key === undefined) return;
  const { served, path, query, cursor, result, shown } = context;
  const kept: Kept = { target: context.target, served, path, query, cursor, result, shown };
  const state = context.core.states.read(context.token);
  const bytes = bodyBytes + 2 * key.length + MEMO_ENTRY_BYTES;
  context.core.states.chargeMemo(context.token, state, remember(state, key, kept, bytes));
}
