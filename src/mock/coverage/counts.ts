/**
 * What one scope (the whole process, or one token state) exercised: a counter per slot of the
 * universe (./universe.ts) and, per target, what was seen that is no slot (./recorder.ts).
 */
import type { TargetUniverse } from './universe.ts';

export class Counts {
  readonly counts: Int32Array;
  /** Per target, what was seen that is not a slot: transitions, write rules, statuses outside. */
  readonly observed = new Map<TargetUniverse, Map<string, number>>();
  /** Requests no operation answered (404 and 405 of routing, a version refused): by status. */
  readonly unrouted = new Map<number, number>();
  constructor(size: number) {
    this.counts = new Int32Array(size);
  }
}
