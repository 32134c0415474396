/**
 * The state limits of a write (../limits.ts): the records it would create per collection and the
 * bytes the token's state would hold of its own. A write beyond them is refused naming the limit.
 */

import { fieldRefusal, type Refusal } from '../../http/index.ts';
import { type State, sizeOf } from '../collection-state.ts';
import type { MockLimits } from '../limits.ts';
import { type AnyRecord, collectionOf, keyField } from '../model/index.ts';

export function checkLimits(state: State, changes: [string, AnyRecord][], limits: MockLimits): Refusal | undefined {
  const created = createdBy(state, changes);
  for (const [collection, count] of created) {
    if ((state.created.get(collection) ?? 0) + count > limits.maxRecords) {
      const noun = collectionOf(collection).singular;
      return fieldRefusal('limit', {
        field: 'path',
        rule: 'maxRecords',
        message: `This token's state has created ${limits.maxRecords} ${noun} records, the mock's limit per collection (maxRecords); reset it (POST /__mock/reset) or raise the limit (--max-records).`,
      });
    }
  }
  let bytes = 0;
  for (const [, record] of changes) bytes += sizeOf(record);
  if (state.bytes + bytes > limits.maxStateBytes) {
    return fieldRefusal('limit', {
      field: 'body',
      rule: 'maxStateBytes',
      message: `This write would take the token's state over ${limits.maxStateBytes} bytes of records of its own, the mock's limit (maxStateBytes); reset it (POST /__mock/reset) or raise the limit (--max-state-bytes).`,
    });
  }
  return undefined;
}

const NONE: readonly [string, number][] = [];

/**
 * The records a write creates (keys the state does not hold), counted per collection in the order
 * the changes name them. A write of one record (a create) makes no map.
 */
function createdBy(state: State, changes: [string, AnyRecord][]): Iterable<readonly [string, number]> {
  if (changes.length === 1) {
    const only = changes[0] as [string, AnyRecord];
    return isNew(state, only) ? [[only[0], 1]] : NONE;
  }
  const created = new Map<string, number>();
  for (const change of changes) if (isNew(state, change)) created.set(change[0], (created.get(change[0]) ?? 0) + 1);
  return created;
}

const isNew = (state: State, [collection, record]: [string, AnyRecord]) =>
  !state.get(collection, record[keyField(collection)]);
