// src/proxy/deferred.ts: the report, the log and the recording of an exchange run after its answer
// is sent, in one setImmediate per turn of the event loop, and `drain()` runs them at once (the
// report and close() call it, so neither misses an exchange already answered).
import { describe, expect, it } from 'vitest';
import { Deferred } from '../../src/proxy/deferred.ts';

describe('Deferred', () => {
  it('runs queued work after the current code, in order, in one turn; drain() runs it at once', async () => {
    const done: number[] = [];
    const deferred = new Deferred((error) => {
      throw error;
    });
    deferred.add(() => done.push(1));
    deferred.add(() => done.push(2));
    expect(done).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual([1, 2]);
    deferred.add(() => done.push(3));
    deferred.drain();
    expect(done).toEqual([1, 2, 3]);
    // Drained work is not run again by the turn it was scheduled for.
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual([1, 2, 3]);
  });

  it('a piece of work that throws is told to onError, and the rest still runs (work it queues too)', () => {
    const errors: string[] = [];
    const done: string[] = [];
    const deferred = new Deferred((error) => errors.push(error.message));
    deferred.add(() => {
      throw new Error('broken');
    });
    deferred.add(() => {
      done.push('after');
      deferred.add(() => done.push('queued by work'));
    });
    deferred.drain();
    expect(errors).toEqual(['broken']);
    expect(done).toEqual(['after', 'queued by work']);
  });
});
