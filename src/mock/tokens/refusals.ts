/** The refusals of the token store (./token-states.ts): a write cancelled by a reset, an evicted state, a state file that fails. */
import { type Refusal, refusal } from '../../http/index.ts';

type Context = Record<string, unknown>;

/** 409: a reset or restore of this state arrived while the write was in flight; it was not applied. */
export const resetConflict = (context: Context): Refusal =>
  refusal(
    'resetConflict',
    'The state was reset or restored while this write was in flight; nothing was changed. Send it again.',
    [],
    context,
  );

/** 410: the token's state was evicted (least recently used) and the mock has no state file to reload it from. */
export const stateEvicted = (limit: number, context: Context = {}): Refusal =>
  refusal(
    'stateEvicted',
    `This token's state was evicted (the mock keeps the ${limit} most recently used states in memory; start it with --state FILE to reload evicted states). POST /__mock/reset with this token to start again from the seeded data.`,
    [],
    context,
  );

/** 503: the write was applied in memory but the state file could not be written. */
export const stateFileFailed = (error: unknown, context: Context): Refusal =>
  refusal(
    'stateFile',
    `The change was made in memory but could not be saved: ${(error as Error).message}.`,
    [],
    context,
  );
