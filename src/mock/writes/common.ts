/** What the writes (./*.ts) share: a refusal naming a field, copying declared body fields. */

import { fieldRefusal } from '../../http/index.ts';
import type { AnyRecord, WriteRefusal } from '../model/types.ts';

/** A deep copy of a JSON value (a primitive is its own copy: no structuredClone call per string field). */
export const clone = <T>(value: T): T => (value !== null && typeof value === 'object' ? structuredClone(value) : value);

/** A write the store refuses: 422 naming `field` and the `rule` (the message is the detail). */
export function refuse(field: string, rule: string, message: string): WriteRefusal {
  return { ok: false, refusal: fieldRefusal('refusedByStore', { field, rule, message: `${field}: ${message}` }) };
}

/** Copies the declared body fields onto the record (never `__proto__`, `constructor`...). */
export function assignDeclared(record: AnyRecord, body: AnyRecord, properties: string[], skip: string[] = []): void {
  for (const name of properties) {
    if (skip.includes(name) || !Object.hasOwn(body, name)) continue;
    record[name] = clone(body[name]);
  }
}

/** The highest `id` among `items` (a loop: no spread of a long list). */
export function maxId(items: AnyRecord[] | undefined): number {
  let max = 0;
  for (const item of items ?? []) {
    const id = Number(item.id) || 0;
    if (id > max) max = id;
  }
  return max;
}
