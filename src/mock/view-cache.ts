/**
 * A record's JSON in a version's shape (its collection's view, ./model, projected on the version's
 * schema, ./project.ts), made once per record revision as UTF-8 bytes and reused by every read,
 * every page and every token state holding that record (a page copies them into its own bytes,
 * ./stages/respond.ts jsonBytes; a read by key answers them as they are: never to be written to).
 *
 * Why it is exact without any invalidation: records are never changed in place
 * (./collection-state.ts), so a write, a reset, a restore or a fork shows up as another record
 * object, and the texts are kept per record object (a WeakMap: they die with the last state holding
 * the record). What a view reads of *other* records (in one version a subscription line nests its
 * product's stock record) is remembered with the text: each read (`get` by key, `first` by an
 * index) and the record it found. The text is used again only if the same reads, made in the
 * caller's state, find the same records. A view that calls `list` reads a whole collection: its
 * text is not kept. Texts are kept per projector (one per operation, version and record position),
 * which fixes the version's bundle the view read too.
 */
import type { Bundle } from '../contract/index.ts';
import type { AnyRecord, ViewContext } from './model/index.ts';
import type { Projector } from './project.ts';

/** What the views read in the caller's state (a State, ./collection-state.ts). */
export interface ViewSource {
  list(collection: string): AnyRecord[];
  get(collection: string, key: string | number): AnyRecord | undefined;
  first(collection: string, by: (record: AnyRecord) => unknown, value: unknown): AnyRecord | undefined;
}

/**
 * The reads a view made, four cells each: collection, index reader (`undefined`: by key), the key
 * or value looked up, the record found (or undefined). An entry thus holds the related records it
 * was made from (a seeded subscription's text made in a token's state may hold that state's stock
 * record) until it is made again: one set per kept text, so bounded, but it may outlive the state.
 */
type Reads = unknown[];

interface Entry {
  bytes: Uint8Array;
  /** Undefined when the view read no other record. */
  reads: Reads | undefined;
}

/**
 * Estimated bytes of a kept text beyond its own bytes: the entry, its WeakMap slot, the Uint8Array
 * and its own buffer (~300-480 bytes of RSS a text in Node 20, 100,000 texts of 500 bytes).
 */
export const ENTRY_BYTES = 320;

const kept = new WeakMap<Projector, WeakMap<AnyRecord, Entry>>();
const encoder = new TextEncoder();

/** A text this request made and kept: what a state's memory estimate counts (./tokens/memory-states.ts chargeTexts). */
export type MadeText = [collection: string, record: AnyRecord, bytes: number];

/** A collection's declared view (./model/types.ts `view`). */
export type RecordView = (record: AnyRecord, context: ViewContext) => AnyRecord;

/**
 * The text kept for `record` under `project`, if the records its view read are still the ones the
 * caller's state holds; else undefined (make it with {@link ViewReads.make}). Allocates nothing.
 */
export function keptText(project: Projector, record: AnyRecord, source: ViewSource): Uint8Array | undefined {
  const entry = kept.get(project)?.get(record);
  if (entry === undefined) return undefined;
  const reads = entry.reads;
  if (reads === undefined) return entry.bytes;
  for (let i = 0; i < reads.length; i += 4) {
    const collection = reads[i] as string;
    const by = reads[i + 1] as ((record: AnyRecord) => unknown) | undefined;
    const found =
      by === undefined
        ? source.get(collection, reads[i + 2] as string | number)
        : source.first(collection, by, reads[i + 2]);
    if (found !== reads[i + 3]) return undefined;
  }
  return entry.bytes;
}

/**
 * The last page answered per projector of its records (one per operation, version and kind of
 * body): the links it was made with, its records' texts and its bytes. Kept texts are never
 * changed and a text is kept once per record revision, so the same text objects in the same order
 * with the same links are the same page, byte for byte. A page read again unchanged (a poll, a
 * test re-reading) is answered without a copy; another page or another state's replaces it. Not
 * charged to a state: one page per projector, process-wide; it may hold a state's texts after
 * the state is gone, until the next page of that projector.
 */
/** A page's links (a list's `next` and `previous`; undefined for a bare array of records). */
export interface PageLinks {
  next: unknown;
  previous: unknown;
}

interface Page extends PageLinks {
  texts: readonly Uint8Array[];
  bytes: Uint8Array;
}

const pages = new WeakMap<Projector, Page>();

/** The page kept for `project` if it was made of the same `texts` and links; else undefined. Allocates nothing. */
export function keptPage(project: Projector, links: PageLinks, texts: readonly Uint8Array[]): Uint8Array | undefined {
  const page = pages.get(project);
  if (!page || page.next !== links.next || page.previous !== links.previous || page.texts.length !== texts.length)
    return undefined;
  for (let i = 0; i < texts.length; i++) if (page.texts[i] !== texts[i]) return undefined;
  return page.bytes;
}

/** Keeps a page's bytes for {@link keptPage}, in place of the projector's last one. */
export function keepPage(project: Projector, links: PageLinks, texts: readonly Uint8Array[], bytes: Uint8Array): void {
  pages.set(project, { next: links.next, previous: links.previous, texts, bytes });
}

/**
 * The view context that makes texts: the caller's state, with the reads of the view being made
 * recorded. Made only when a request has a text to make (its methods are closures, so that a view
 * may take them apart: `(record, { get }) => …`).
 */
export class ViewReads implements ViewContext {
  private reads: Reads = [];
  private whole = false;
  /** The texts this request made and kept, for the state's memory estimate. */
  made: MadeText[] = [];
  constructor(
    private readonly source: ViewSource,
    readonly bundle: Bundle,
  ) {}
  readonly list = (collection: string): AnyRecord[] => {
    this.whole = true;
    return this.source.list(collection);
  };
  readonly get = (collection: string, key: string | number): AnyRecord | undefined => {
    const found = this.source.get(collection, key);
    this.reads.push(collection, undefined, key, found);
    return found;
  };
  readonly first = (collection: string, by: (record: AnyRecord) => unknown, value: unknown): AnyRecord | undefined => {
    const found = this.source.first(collection, by, value);
    this.reads.push(collection, by, value, found);
    return found;
  };

  /**
   * `JSON.stringify(project(view(record)))` (`view` absent: the record as stored) as UTF-8, kept for
   * the record and projector unless the view read a whole collection.
   */
  make(collection: string, project: Projector, record: AnyRecord, view: RecordView | undefined): Uint8Array {
    this.reads = [];
    this.whole = false;
    const bytes = encoder.encode(JSON.stringify(project(view ? view(record, this) : record)));
    if (this.whole) return bytes;
    let texts = kept.get(project);
    if (!texts) {
      texts = new WeakMap();
      kept.set(project, texts);
    }
    texts.set(record, { bytes, reads: this.reads.length > 0 ? this.reads : undefined });
    this.made.push([collection, record, bytes.byteLength + ENTRY_BYTES]);
    return bytes;
  }
}
