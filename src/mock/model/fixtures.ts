/**
 * `--data` fixtures: records per collection replacing the seeded ones, each validated against the
 * schema component its collection declares (./types.ts RecordSchema, checked by ./schemas.ts), keys
 * unique (ids integers, order numbers strings). A bad file is refused naming the file, the record
 * and the field; a proxy recording has its unservable records skipped with a warning instead.
 */
import type { DefaultSchemas } from '../../../generated/types/index.ts';
import { collectionOf, MODEL } from './index.ts';
import type { RecordCheck } from './schemas.ts';
import type { AnyRecord, StoreData } from './types.ts';

/**
 * Records per collection, as `--data file.json` holds them, typed by the generated types: each
 * collection's records in the shape of the schema component its model declares (./types.ts
 * RecordSchema), in the newest version defining it. A fixture that breaks the contract fails at
 * type-check; at run time it is refused naming the field.
 */
export interface MockFixtures {
  subscriptions?: DefaultSchemas['Subscription'][];
  transactions?: DefaultSchemas['Transaction'][];
  fulfillmentOrders?: DefaultSchemas['FulfillmentOrder'][];
  tickets?: DefaultSchemas['Ticket'][];
  orders?: DefaultSchemas['Order'][];
  fulfillments?: DefaultSchemas['OrderFulfillment'][];
  stockrecords?: DefaultSchemas['StockRecord'][];
  giftCards?: DefaultSchemas['GiftCard'][];
  metadata?: DefaultSchemas['MetadataDefinition'][];
  pages?: DefaultSchemas['Page'][];
  store?: DefaultSchemas['Store'][];
}
export type FixtureCollection = keyof MockFixtures;

/** A `--data` file the mock refuses: names the file, the record and the field. */
export class FixtureError extends Error {
  override name = 'FixtureError';
}

/** The collections a fixture file may name: every collection that declares a contract schema. */
export const FIXTURE_COLLECTIONS = MODEL.filter((c) => c.schema).map((c) => c.name);

/** Where fixture data comes from (named in messages), how its records are checked, who hears what is skipped. */
export interface FixtureOptions {
  source: string;
  check: RecordCheck;
  warn?: (message: string) => void;
}

/**
 * Replaces the collections `data` names with its records. A hand-written fixture file is refused
 * (FixtureError) at its first record the mock cannot serve; a proxy recording (a `$recording`
 * object) is evidence of the real API, so such a record (or an unknown collection) is skipped and
 * `warn` told, naming it and the rule. Not an object of record arrays: refused either way.
 */
export function applyFixtures(store: StoreData, data: unknown, options: FixtureOptions): void {
  const { source, check, warn = console.warn } = options;
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new FixtureError(
      `${source}: must be a JSON object of record arrays by resource (${FIXTURE_COLLECTIONS.join(', ')})`,
    );
  }
  const meta = (data as Record<string, unknown>).$recording;
  const recording = meta !== null && typeof meta === 'object' && !Array.isArray(meta);
  const unusable = (message: string) => {
    if (!recording) throw new FixtureError(message);
    warn(`${message}; skipped`);
  };
  for (const [name, records] of Object.entries(data as Record<string, unknown>)) {
    // `$`-keys are metadata (a proxy recording's `$recording`, a `$schema`), not collections.
    if (name.startsWith('$')) continue;
    if (!FIXTURE_COLLECTIONS.includes(name)) {
      unusable(`${source}: unknown resource "${name}" (one of ${FIXTURE_COLLECTIONS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(records)) {
      unusable(`${source}: ${name} must be an array of records`);
      continue;
    }
    const seen = new Set<string>();
    const kept: AnyRecord[] = [];
    records.forEach((record, index) => {
      const refused = checkRecord(record, { name, where: `${source}: ${name}[${index}]` }, check, seen);
      if (refused === undefined) kept.push(record as AnyRecord);
      else unusable(refused);
    });
    store[name] = structuredClone(kept);
  }
}

/** Why one record breaks its collection's contract schema (a state file's record), or undefined. */
export function recordProblem(name: string, record: unknown, check: RecordCheck): string | undefined {
  if (!collectionOf(name).schema) return undefined; // internal (locations): no contract shape
  return checkRecord(record, { name, where: name }, check, new Set());
}

/** The label of a record in messages: where it is, and its key when that is a plain value. */
function labelOf(record: unknown, key: string, where: string): string {
  // The key is named only when it is a plain value (a nested one could be arbitrarily deep).
  const keyValue = record && typeof record === 'object' ? (record as AnyRecord)[key] : undefined;
  const shown =
    typeof keyValue === 'number'
      ? String(keyValue)
      : typeof keyValue === 'string'
        ? JSON.stringify(keyValue.slice(0, 40))
        : '';
  return shown ? `${where} (${key} ${shown})` : where;
}

/**
 * Why a record cannot be served (the message names it, the field and the rule), or undefined.
 * A key is what reads address: an `id` a safe integer, an order `number` a non-empty string (the
 * spec's type: a recorded store's numbers need not be digits); unique in its collection.
 */
function checkRecord(
  record: unknown,
  at: { name: string; where: string },
  check: RecordCheck,
  seen: Set<string>,
): string | undefined {
  const { name, where } = at;
  const { key, schema, singleton } = collectionOf(name);
  const component = schema?.component ?? '';
  const label = labelOf(record, key, where);
  if (!record || typeof record !== 'object' || Array.isArray(record)) return `${label}: not an object`;
  const violations = check(component, record);
  if (violations === undefined) return `${label}: ${name} needs schema ${component}, absent from the bundles`;
  const first = violations[0];
  if (first) {
    // The location is the record's own (`body` stands for the record): the message names its field.
    const field = first.location.slice(1).join('.') || '(record)';
    return `${label}: field ${field} breaks the contract (${first.rule}): ${first.message}`;
  }
  if (singleton) return undefined;
  const value = (record as AnyRecord)[key];
  if (typeof value === 'string' ? value.trim() === '' : !Number.isSafeInteger(value)) {
    return `${label}: field ${key} must be a safe integer or, for an order number, a non-empty string (rule key)`;
  }
  if (seen.has(String(value))) return `${label}: duplicate ${key} ${String(value).slice(0, 40)} (rule unique)`;
  seen.add(String(value));
  return undefined;
}

/** A state's data as a fixture file holds it (`GET /__mock/state`, `engine.export()`): the fixture collections, copied. */
export function fixturesOf(data: StoreData): MockFixtures {
  const present = FIXTURE_COLLECTIONS.filter((name) => data[name] !== undefined);
  return Object.fromEntries(present.map((name) => [name, structuredClone(data[name])])) as MockFixtures;
}
