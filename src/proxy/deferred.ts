/**
 * Work an exchange leaves for after its answer is sent (counting it in the report, logging it,
 * recording it): queued, and done in one `setImmediate` per turn of the event loop, so the next
 * request on a connection is read first and a burst of answers shares one callback. `drain()` does
 * the queued work at once: the report, `close()` and the recording's last write call it, so they
 * never miss an exchange already answered.
 */
export class Deferred {
  private queue: (() => void)[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  /** `onError` is told of a piece of work that threw (the others still run). */
  constructor(private readonly onError: (error: Error) => void) {}

  /** Queues `work`; it runs before the event loop next waits for input, or at the next `drain()`. */
  add(work: () => void): void {
    this.queue.push(work);
    this.scheduled ??= setImmediate(() => this.drain());
  }

  /** Runs everything queued, in order; a failing piece of work does not keep the others from running. */
  drain(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    while (this.queue.length > 0) {
      const queue = this.queue;
      this.queue = [];
      for (const work of queue) {
        try {
          work();
        } catch (error) {
          this.onError(error as Error);
        }
      }
    }
  }
}
