/**
 * The contract's examples as live records. Every record an example of any bundle shows (subscription
 * 48213, order "100234", fulfillment order 61204...) is stored as it is, when it satisfies its
 * collection's schema; every key a path parameter example names (`1042`, `"100234"`) gets a record
 * of its collection (each collection's `atExampleKey`), in a state the operation's example request
 * is accepted in. ./links.ts then completes both sides of every relation they name.
 */
import { type Bundle, deref, type Json, jsonMediaOf, responseMediaOf } from '../../contract/index.ts';
import { recordCheckOf } from './schemas.ts';
import type { AnyRecord, Collection, CollectionDecl, ExampleContext, StoreData } from './types.ts';

/** The records of `collection` in one example value (a page, an array, a record, or records by name). */
export function recordsIn(collection: CollectionDecl, value: Json): AnyRecord[] {
  if (!value || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value;
  if (Array.isArray(value.results)) return value.results;
  if (collection.key in value) return [value];
  return Object.values<Json>(value).filter((v) => v && typeof v === 'object' && collection.key in v);
}

/** Every 200 example value of `operationId`, in every bundle serving it. */
export function exampleValues(bundles: Bundle[], operationId: string): Json[] {
  const out: Json[] = [];
  for (const bundle of bundles) {
    const operation = bundle.operations.find((o) => o.operationId === operationId);
    const media = responseMediaOf(bundle.document, operation);
    for (const example of Object.values<Json>(media?.examples ?? {})) out.push(deref(bundle.document, example)?.value);
    if (media?.example !== undefined) out.push(media.example);
  }
  return out;
}

/** Fills what `target` lacks from `source`, at every depth (arrays element by element). */
function fillMissing(target: Json, source: Json): void {
  if (!target || !source || typeof target !== 'object' || typeof source !== 'object') return;
  if (Array.isArray(target) !== Array.isArray(source)) return;
  for (const [name, value] of Object.entries<Json>(source)) {
    // An array keeps its own elements (a later example's extra ones are another state).
    if (!(name in target)) {
      if (!Array.isArray(target)) target[name] = structuredClone(value);
    } else fillMissing(target[name], value);
  }
}

/** Is `record` a later state of `known` (a write's answer: every list of it as long, one longer)? */
function laterState(record: AnyRecord, known: AnyRecord): boolean {
  const lists = Object.keys(known).filter((name) => Array.isArray(known[name]) && Array.isArray(record[name]));
  return (
    lists.every((name) => record[name].length >= known[name].length) &&
    lists.some((name) => record[name].length > known[name].length)
  );
}

/**
 * The example records of `collection` that satisfy its schema, one per key (the latest state of
 * a record several examples show, e.g. a subscription after its renewal): a record shown by
 * several examples (a fulfillment in its own operation's and inside an order) is their union, so
 * it satisfies every version's schema that shows it.
 */
export function exampleRecords(bundles: Bundle[], collection: Collection): AnyRecord[] {
  const schema = collection.schema;
  if (!schema || collection.singleton) return [];
  const found = new Map<string, AnyRecord>();
  const add = (record: AnyRecord) => {
    const key = String(record[collection.key]);
    if (!Number.isSafeInteger(Number(key))) return;
    const known = found.get(key);
    if (known && laterState(record, known)) {
      const later = structuredClone(record);
      fillMissing(later, known);
      found.set(key, later);
    } else if (known) fillMissing(known, record);
    else found.set(key, structuredClone(record));
  };
  for (const operationId of collection.servedBy) {
    for (const value of exampleValues(bundles, operationId)) recordsIn(collection, value).forEach(add);
  }
  for (const { operationId, field } of collection.nestedIn ?? []) {
    for (const value of exampleValues(bundles, operationId)) for (const record of value?.[field] ?? []) add(record);
  }
  const check = recordCheckOf(bundles, 'Example record');
  return [...found.values()].filter((record) => check(schema.component, record)?.length === 0);
}

/** The keys the path parameter examples of a collection's operations name (`1042`, `"100234"`). */
export function exampleKeys(bundles: Bundle[], collection: Collection): string[] {
  const keys = new Set<string>();
  for (const bundle of bundles) {
    for (const operation of bundle.operations) {
      if (!collection.addressedBy.includes(operation.operationId)) continue;
      for (const parameter of operation.parameters) {
        if (parameter?.in !== 'path') continue;
        const example = parameter.example ?? deref(bundle.document, parameter.schema)?.example;
        if (example !== undefined && example !== null) keys.add(String(example));
      }
    }
  }
  return [...keys];
}

/** Puts `record` into `store[collection]`, replacing the one with its key. */
export function putRecord(store: StoreData, collection: CollectionDecl, record: AnyRecord): void {
  store[collection.name] ??= [];
  const records = store[collection.name] as AnyRecord[];
  const key = String(record[collection.key]);
  const at = records.findIndex((r) => String(r[collection.key]) === key);
  if (at === -1) records.push(record);
  else records[at] = record;
}

/**
 * The record at an example key: a copy of the first example record (else of the first stored one)
 * matching `fits`, its key set to `key`. Records without relations of their own use it as it is.
 */
export function copyAtKey<R extends object>(
  collection: CollectionDecl<R>,
  key: string,
  context: ExampleContext,
  fits: (r: R) => boolean = () => true,
): R {
  // Example and stored records of the collection are its records (`{}` when it has none: the
  // caller's own fields are then all the record has).
  const records = [...context.examples(collection.name), ...(context.store[collection.name] ?? [])] as R[];
  const copy: AnyRecord = structuredClone(records.find(fits) ?? {});
  copy[collection.key] = collection.key === 'number' ? key : Number(key);
  return copy as R;
}

/** Every example request body of `operationId`, in every bundle serving it. */
export function exampleRequests(bundles: Bundle[], operationId: string): AnyRecord[] {
  const out: AnyRecord[] = [];
  for (const bundle of bundles) {
    const operation = bundle.operations.find((o) => o.operationId === operationId);
    const media = jsonMediaOf(bundle.document, operation?.operation.requestBody);
    for (const example of Object.values<Json>(media?.examples ?? {})) out.push(deref(bundle.document, example)?.value);
    if (media?.example !== undefined) out.push(media.example);
  }
  return out.filter((body) => body && typeof body === 'object');
}
