/**
 * Stage view: the records of the answer as the version shows them (each collection's declared view,
 * ../model), then projected on the version's response schema (only the properties it declares). A
 * write's answer is validated against that schema: a change that would leave a record the contract
 * does not allow is refused (422) and nothing is stored.
 */

import { refusal, summarize } from '../../http/index.ts';
import { type AnyRecord, collectionOf, type ViewContext } from '../model/index.ts';
import type { Projector } from '../project.ts';
import { keepPage, keptPage, keptText, type RecordView, ViewReads, type ViewSource } from '../view-cache.ts';
import type {
  Authorized,
  Checked,
  Incoming,
  Preferred,
  Routed,
  Stage,
  Stored,
  StoreResult,
  Target,
  Viewed,
} from './context.ts';

import { rememberPage } from './memo.ts';
import { JsonBytes, jsonBytes, refuseRouted } from './respond.ts';

type Viewing = Incoming & Routed & Authorized & Stored & Viewed;

/** What a collection's view reads: the caller's state, a write's pending records over it. */
function viewContextOf(context: Viewing): ViewContext {
  const state = context.core.states.read(context.token);
  const pending = new Map<string, AnyRecord>();
  if (context.result.kind === 'write')
    for (const [c, r] of context.result.changes) pending.set(`${c} ${r[collectionOf(c).key]}`, r);
  const get = (name: string, key: string | number) => pending.get(`${name} ${key}`) ?? state.get(name, key);
  return {
    list: (name) => state.list(name),
    get,
    // The state's record, or the write's new copy of it.
    first: (name, by, value) => {
      const found = state.first(name, by, value);
      return found && get(name, found[collectionOf(name).key]);
    },
    bundle: context.target.bundle,
  };
}

/** A record of `collection` as the context's version shows it. */
export function viewOf(context: Viewing, collection: string, record: AnyRecord): AnyRecord {
  const decl = collectionOf(collection);
  if (!decl.view) return record;
  // One view context per request, made when a record first needs it.
  context.viewContext ??= viewContextOf(context);
  return decl.view(record, context.viewContext);
}

function shownOf(context: Viewing): unknown {
  const result = context.result;
  const { collection } = result;
  switch (result.kind) {
    case 'list':
      return {
        next: result.next,
        previous: result.previous,
        results: result.records.map((record) => viewOf(context, collection, record)),
      };
    case 'records':
      return result.records.map((record) => viewOf(context, collection, record));
    case 'record':
      return viewOf(context, collection, result.record);
    case 'write': {
      const body = result.body as AnyRecord;
      if (result.shape === 'as-is' || !body || typeof body !== 'object') return body;
      if (result.shape === 'record') return viewOf(context, collection, body);
      return Object.fromEntries(
        Object.entries(body).map(([name, value]) => [
          name,
          value && typeof value === 'object' ? viewOf(context, collection, value) : value,
        ]),
      );
    }
  }
}

/** Where a read's records sit in its response schema: a list's `results` items, a body array's items, the body. */
const RECORD_PARTS = { list: ['results', '[]'], records: ['[]'], record: [] } as const;
const recordProjectors = new WeakMap<Target, Partial<Record<keyof typeof RECORD_PARTS, Projector>>>();

function recordProjector(target: Target, kind: keyof typeof RECORD_PARTS): Projector | undefined {
  const byKind = recordProjectors.get(target) ?? {};
  recordProjectors.set(target, byKind);
  if (!(kind in byKind)) {
    let project: Projector | undefined = target.project;
    for (const name of RECORD_PARTS[kind]) project = project?.part?.(name);
    byKind[kind] = project;
  }
  return byKind[kind];
}

/** What a read's texts come from: the projector of its records, the caller's state, its collection's view. */
interface Reading {
  project: Projector;
  state: ViewSource;
  collection: string;
  view: RecordView | undefined;
  /** Made when the read has a text to make. */
  reads: ViewReads | undefined;
}

/** One record's text: kept (../view-cache.ts), or made now by its view, its reads recorded. */
function recordText(context: Viewing, read: Reading, record: AnyRecord): Uint8Array {
  const bytes = keptText(read.project, record, read.state);
  if (bytes !== undefined) return bytes;
  read.reads ??= new ViewReads(read.state, context.target.bundle);
  return read.reads.make(read.collection, read.project, record, read.view);
}

/**
 * A page's bytes: the ones answered last for the same records' texts and links (../view-cache.ts
 * keptPage: no copy, as a server answering a prebuilt buffer), else the envelope around the texts.
 */
function pageBytes(context: Viewing, result: Extract<StoreResult, { kind: 'list' | 'records' }>, read: Reading) {
  const texts: Uint8Array[] = [];
  for (const record of result.records) texts.push(recordText(context, read, record));
  const links = result.kind === 'list' ? result : { next: undefined, previous: undefined };
  const kept = keptPage(read.project, links, texts);
  if (kept) return kept;
  const parts = texts.map((text) => new JsonBytes(text));
  let body: unknown = parts;
  if (result.kind === 'list') {
    const envelope = context.target.project({ next: links.next, previous: links.previous, results: [] }) as AnyRecord;
    body = { ...envelope, results: parts };
  }
  const bytes = jsonBytes(body) as Uint8Array;
  keepPage(read.project, links, texts, bytes);
  return bytes;
}

/**
 * A read's body as JSON bytes: each record's text made once per record revision and version
 * (../view-cache.ts), a page the envelope around its records' texts; the same bytes as viewing,
 * projecting and serializing the whole body. The texts a read kept for records of the caller's own
 * are counted in its state's memory estimate.
 */
function readJson(context: Viewing, result: Exclude<StoreResult, { kind: 'write' }>): JsonBytes | undefined {
  const project = recordProjector(context.target, result.kind);
  if (!project) return undefined;
  const { collection } = result;
  const state = context.core.states.read(context.token);
  const read: Reading = { project, state, collection, view: collectionOf(collection).view, reads: undefined };
  const bytes = result.kind === 'record' ? recordText(context, read, result.record) : pageBytes(context, result, read);
  if (read.reads) context.core.states.chargeTexts(context.token, read.reads.made);
  return new JsonBytes(bytes);
}

export const view: Stage<Incoming & Routed & Authorized & Preferred & Checked & Stored, Viewed> = {
  name: 'view',
  run: (context) => {
    const result = context.result;
    const read = result.kind !== 'write' ? readJson(context, result) : undefined;
    if (read) {
      context.shown = read;
      // A list's answer, for the next same read of the unchanged state.
      if (result.kind === 'list') rememberPage(context, read.bytes.byteLength);
      return undefined;
    }
    context.shown = context.target.project(shownOf(context));
    if (result.kind !== 'write') return undefined;
    const broken = context.target.validator.checkResponse(context.shown);
    if (broken.length === 0) return undefined;
    // The write would leave a record the contract does not allow: nothing is stored.
    const detail = `The change would leave a record the contract does not allow: ${summarize(broken)}. Nothing was changed.`;
    return refuseRouted(context, refusal('invalidRequest', detail, broken, context.problem));
  },
};
