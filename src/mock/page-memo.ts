/**
 * A state's memo of its list answers (issue 28): what a list read answered (its checked query, its
 * page, its bytes), kept per state under the request's exact key (./stages/memo.ts says what the
 * key holds) and valid only while the state is unchanged. Every change of a state's records passes
 * through State.put (./collection-state.ts), which counts them in `edits`: a memo made at another
 * count is dropped whole on the state's next list read that misses. A reset, a restore, a fork or an
 * eviction gives the token another State object, so the memo of the old one is never read again (a
 * WeakMap: it dies with that object).
 *
 * Bounded per state ({@link MAX_MEMO_PAGES} answers, {@link MAX_MEMO_BYTES}); the oldest answer
 * goes first. What it holds is counted in the state's memory estimate by the caller
 * (./tokens/memory-states.ts chargeMemo): {@link remember} returns the change of its estimate.
 */
import type { State } from './collection-state.ts';

/** Answers kept per state at most. */
export const MAX_MEMO_PAGES = 16;
/** Estimated bytes of the answers kept per state at most; a larger answer is not kept. */
export const MAX_MEMO_BYTES = 1024 * 1024;
/** Estimated bytes of an answer beyond its body's: its entry, key, page and query objects, link texts. */
export const MEMO_ENTRY_BYTES = 1024;

interface Memo {
  /** The state's `edits` when these answers were kept. */
  edits: number;
  entries: Map<string, { value: unknown; bytes: number }>;
  bytes: number;
}

const memos = new WeakMap<State, Memo>();

/** The answer kept under `key` for `state` as it is now; else undefined. Allocates nothing. */
export function recall(state: State, key: string): unknown {
  const memo = memos.get(state);
  if (memo === undefined || memo.edits !== state.edits) return undefined;
  return memo.entries.get(key)?.value;
}

/**
 * Keeps `value` under `key` for `state` as it is now, its estimated size `bytes` (a memo of an
 * older state's is dropped first, and the oldest answers beyond the bounds); the change of the
 * state's estimate, in bytes (negative when more was dropped than kept).
 */
export function remember(state: State, key: string, value: unknown, bytes: number): number {
  let memo = memos.get(state);
  let change = 0;
  if (memo === undefined || memo.edits !== state.edits) {
    change -= memo?.bytes ?? 0;
    memo = { edits: state.edits, entries: new Map(), bytes: 0 };
    memos.set(state, memo);
  }
  if (bytes > MAX_MEMO_BYTES) return change;
  const { entries } = memo;
  const replaced = entries.get(key);
  if (replaced) {
    entries.delete(key);
    memo.bytes -= replaced.bytes;
    change -= replaced.bytes;
  }
  for (const [oldest, entry] of entries) {
    if (entries.size < MAX_MEMO_PAGES && memo.bytes + bytes <= MAX_MEMO_BYTES) break;
    entries.delete(oldest);
    memo.bytes -= entry.bytes;
    change -= entry.bytes;
  }
  entries.set(key, { value, bytes });
  memo.bytes += bytes;
  return change + bytes;
}
