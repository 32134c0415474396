/**
 * The token states kept in memory, evicted by last use: a get or a write moves a state to the most
 * recently used end; beyond `maxStates` states, or beyond `maxBytes` of estimated cost, the least
 * recently used states are dropped (never the one being charged). The cost of a state is the
 * caller's estimate (./memory-states.ts: the JSON bytes of the records it wrote plus the slots of the
 * collections it copied), so the budget bounds what the states hold beyond the shared seeded data.
 */

export interface RegistryOptions<V> {
  maxStates: number;
  maxBytes: number;
  /** Called with each evicted key and value. */
  onEvict?: (key: string, value: V) => void;
}

export class Registry<V> {
  private readonly values = new Map<string, { value: V; cost: number }>();
  private total = 0;
  readonly maxStates: number;
  readonly maxBytes: number;
  private readonly onEvict: ((key: string, value: V) => void) | undefined;

  constructor(options: RegistryOptions<V>) {
    this.maxStates = options.maxStates;
    this.maxBytes = options.maxBytes;
    this.onEvict = options.onEvict;
  }

  /** The key used last: reading it again moves nothing (a request reads its state several times). */
  private newest: string | undefined;

  /** The value, now the most recently used. */
  get(key: string): V | undefined {
    const slot = this.values.get(key);
    if (!slot) return undefined;
    if (key !== this.newest) {
      this.values.delete(key);
      this.values.set(key, slot);
      this.newest = key;
    }
    return slot.value;
  }

  /** Adds (or replaces) a value at the most recently used end, then evicts beyond the limits. */
  set(key: string, value: V, cost: number): void {
    this.delete(key);
    this.values.set(key, { value, cost });
    this.newest = key;
    this.total += cost;
    this.evict(key);
  }

  /** Adds to a value's cost (a write), then evicts others beyond the limits. */
  charge(key: string, bytes: number): void {
    const slot = this.values.get(key);
    if (!slot) return;
    slot.cost += bytes;
    this.total += bytes;
    this.evict(key);
  }

  delete(key: string): boolean {
    const slot = this.values.get(key);
    if (!slot) return false;
    this.total -= slot.cost;
    return this.values.delete(key);
  }

  clear(): void {
    this.values.clear();
    this.total = 0;
  }

  get size(): number {
    return this.values.size;
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.total;
  }

  /** Entries from the least to the most recently used (no reordering), with their cost. */
  entries(): [key: string, value: V, cost: number][] {
    return [...this.values].map(([key, slot]) => [key, slot.value, slot.cost]);
  }

  private within(): boolean {
    return this.values.size <= this.maxStates && this.total <= this.maxBytes;
  }

  private evict(keep: string): void {
    // Within the limits (nearly every write): no walk begun.
    if (this.within()) return;
    for (const [key, slot] of this.values) {
      if (this.within()) return;
      if (key === keep) continue;
      this.values.delete(key);
      this.total -= slot.cost;
      this.onEvict?.(key, slot.value);
    }
  }
}
