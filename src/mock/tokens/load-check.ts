/**
 * What a state file's entry must satisfy to be loaded into a token's state (a hand-edited or
 * corrupt line is skipped, the journal's warning naming its byte offset): a known collection, each
 * record under its key and satisfying its collection's contract schema, no more records created per
 * collection than `maxRecords` nor bytes of records than `maxStateBytes` (counted as ../collection-state.ts
 * counts them), no more snapshots than `maxSnapshots`, a snapshot name the admin endpoints accept. The engine refuses such writes; the file can still hold them.
 */

import { type State, sizeOf } from '../collection-state.ts';
import { type AnyRecord, keyField, MODEL } from '../model/index.ts';
import type { EntryCheck, Image } from '../persistence/entries.ts';
import { snapshotNameProblem } from './names.ts';

const KNOWN = new Set(MODEL.map((c) => c.name));

export interface LoadCheckOptions {
  seed: State;
  maxRecords: number;
  maxStateBytes: number;
  maxSnapshots: number;
  /** Why a record breaks its collection's contract schema, or undefined. */
  checkRecord?: (collection: string, record: AnyRecord) => string | undefined;
}

export function loadCheck(options: LoadCheckOptions): EntryCheck {
  const { seed, maxRecords, maxStateBytes, maxSnapshots, checkRecord } = options;
  /** Records created (not seeded) per collection map of an image, counted once and then kept. */
  const counted = new WeakMap<Map<string, AnyRecord>, number>();
  const createdIn = (collection: string, records: Map<string, AnyRecord> | undefined) => {
    if (!records) return 0;
    let n = counted.get(records);
    if (n === undefined) {
      n = 0;
      for (const key of records.keys()) if (!seed.get(collection, key)) n++;
      counted.set(records, n);
    }
    return n;
  };
  /** JSON bytes of the records of an image's live state, counted once and then kept. */
  const weighed = new WeakMap<Image, number>();
  const bytesOf = (live: Image) => {
    let n = weighed.get(live);
    if (n === undefined) {
      n = 0;
      for (const records of live.values()) for (const record of records.values()) n += sizeOf(record);
      weighed.set(live, n);
    }
    return n;
  };
  return (entry, image) => {
    if (entry.op === 'snapshot') {
      const problem = snapshotNameProblem(entry.name);
      if (problem) return `snapshot name: ${problem}`;
      if (!image.snapshots.has(entry.name) && image.snapshots.size >= maxSnapshots)
        return `a snapshot beyond the ${maxSnapshots} of one state (maxSnapshots)`;
      return undefined;
    }
    if (entry.op !== 'put') return undefined;
    const added = new Map<string, Set<string>>();
    let bytes = bytesOf(image.live);
    for (const [collection, key, record] of entry.changes) {
      if (!KNOWN.has(collection)) return `unknown collection ${JSON.stringify(collection.slice(0, 40))}`;
      if (String(record[keyField(collection)]) !== key)
        return `${collection} record ${JSON.stringify(key.slice(0, 40))}: its ${keyField(collection)} is not its key`;
      const problem = checkRecord?.(collection, record);
      if (problem) return problem;
      const records = image.live.get(collection);
      const replaced = records?.get(key);
      bytes += sizeOf(record) - (replaced ? sizeOf(replaced) : 0);
      if (bytes > maxStateBytes) return `more than ${maxStateBytes} bytes of records of one state (maxStateBytes)`;
      if (seed.get(collection, key) || replaced) continue;
      const keys = added.get(collection) ?? new Set();
      added.set(collection, keys.add(key));
      if (createdIn(collection, records) + keys.size > maxRecords)
        return `more than ${maxRecords} ${collection} records created by one state (maxRecords)`;
    }
    weighed.set(image.live, bytes);
    for (const [collection, keys] of added) {
      const records = image.live.get(collection);
      if (records) counted.set(records, createdIn(collection, records) + keys.size);
    }
    return undefined;
  };
}
