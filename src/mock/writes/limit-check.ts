/**
 * The state limits of a write (../limits.ts): the records it would create per collection and the
 * bytes the token's state would hold of its own. A write beyond them is refused naming the limit.
 */

import { fieldRefusal, type Refusal } from '../../http/index.ts';
import { type State, sizeOf } from '../collection-state.ts';
import type { MockLimits } from '../limits.ts';
import { type AnyRecord, collectionOf, keyField } from '../model/index.ts';

export function checkLimits(state: State, changes: [string, AnyRecord][], limits: MockLimits): Refusal | undefined {
  const { created, bytes } = weighChanges(state, changes);
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
  if (state.bytes + bytes > limits.maxStateBytes) {
    return fieldRefusal('limit', {
      field: 'body',
      rule: 'maxStateBytes',
      message: `This write would take the token's state over ${limits.maxStateBytes} bytes of records of its own, the mock's limit (maxStateBytes); reset it (POST /__mock/reset) or raise the limit (--max-state-bytes).`,
    });
  }
  return undefined;
}

/**
 * In one pass over a write's changes: the records it creates (keys the state does not hold) per
 * collection, in the order the changes name them, and the bytes of every record it writes. A write
 * names one to three records of one or two collections: a list of pairs, not a map.
 */
function weighChanges(state: State, changes: [string, AnyRecord][]): { created: [string, number][]; bytes: number } {
  const created: [string, number][] = [];
  let bytes = 0;
  for (const [collection, record] of changes) {
    bytes += sizeOf(record);
    if (state.get(collection, record[keyField(collection)])) continue;
    const counted = created.find(([name]) => name === collection);
    if (counted) counted[1] += 1;
    else created.push([collection, 1]);
  }
  return { created, bytes };
}
