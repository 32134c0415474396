/**
 * The mock's limits, in one place (docs/mock.md "Limits"). They bound what a token's state can hold,
 * so that 1,000 token states at their limits stay under 1 GB of memory (scripts/bench/store.ts
 * measures it), and what one request can ask for. A request beyond a limit is refused with 422
 * naming the limit (rule = the limit's name); bodies over MAX_BODY_BYTES (src/http) get 413.
 */

/** Token states kept in memory at most (the least recently used is evicted beyond; ./tokens/registry.ts). */
export const MAX_TOKEN_STATES = 1000;
/** Estimated bytes all token states may hold beyond the seeded data (./tokens/memory-states.ts estimates). */
export const MEMORY_BUDGET = 256 * 1024 * 1024;

export interface MockLimits {
  /** Records a token's state may create per collection (gift cards, orders, transactions...). */
  maxRecords: number;
  /** JSON bytes of the records a token's state holds of its own (created or changed). */
  maxStateBytes: number;
  /** Lines one add-line-items request may add. */
  maxLinesPerRequest: number;
  /** Lines an order may hold. */
  maxLinesPerOrder: number;
  /** Token states kept in memory (least recently used evicted beyond). */
  maxTokenStates: number;
  /** Estimated bytes all token states may hold beyond the seeded data (least recently used evicted beyond). */
  memoryBudget: number;
  /** Named snapshots one token's state may hold (each costs that state, never another's). */
  maxSnapshots: number;
}

export const DEFAULT_LIMITS: MockLimits = {
  maxRecords: 500,
  maxStateBytes: 256 * 1024,
  maxLinesPerRequest: 50,
  maxLinesPerOrder: 200,
  maxTokenStates: MAX_TOKEN_STATES,
  memoryBudget: MEMORY_BUDGET,
  maxSnapshots: 100,
};

/** The limits of an engine: the defaults, with `overrides`; throws a RangeError naming a bad one. */
export function limitsOf(overrides: Partial<MockLimits> = {}): MockLimits {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`limits.${name} must be a positive integer, got ${value}`);
    }
  }
  // Line ids are unique per order below 1000 lines (model/orders.ts lineId).
  if (limits.maxLinesPerOrder > 999)
    throw new RangeError(`limits.maxLinesPerOrder must be at most 999, got ${limits.maxLinesPerOrder}`);
  return limits;
}

/** The limits a token store enforces (./tokens/token-states.ts): states, memory, and what one state may hold. */
export function stateLimitsOf(limits: MockLimits) {
  const { maxTokenStates: maxStates, memoryBudget: maxBytes, maxSnapshots, maxRecords, maxStateBytes } = limits;
  return { maxStates, maxBytes, maxSnapshots, maxRecords, maxStateBytes };
}

/** Records per page of every list: an integer from 1 to 1000 (a RangeError names another). */
export function pageSizeOf(pageSize: number): number {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    throw new RangeError(`pageSize must be an integer from 1 to 1000, got ${pageSize}`);
  }
  return pageSize;
}
