/**
 * The states in the state file: a state rebuilt from its entries ({@link fromImage}, on its token's
 * next request), and what the inspector lists of a state only in the file ({@link FileSummaries}).
 * `GET /__mock/states` is polled once a second by the inspector: a state's summary is read from
 * its entries once, then kept until the file's stamp of that state changes (a new line of it, a
 * compaction, a cut after a failed write), so a poll with no new write reads nothing from the file.
 */

import type { State } from '../collection-state.ts';
import { emptyImage, type Origin, type TokenImage } from '../persistence/entries.ts';
import type { Definition } from './globals.ts';
import { type Held, infoOf, originOf, type Persistence, type Saved, type StateSummary } from './held.ts';

/** A state as its entries leave it, over the seeded data or the global snapshot it forked (`definitionOf`). */
export function fromImage(
  image: TokenImage,
  seed: State,
  definitionOf: (origin: Origin) => Definition | undefined,
): Held {
  const build = (changes: TokenImage['live'], over: Origin | undefined) => {
    const origin = over && definitionOf(over);
    const state = origin ? origin.state.fork() : seed.clone();
    for (const [collection, records] of changes) for (const record of records.values()) state.put(collection, record);
    return { state, changed: new Set(changes.keys()), origin };
  };
  const snapshots = new Map<string, Saved>();
  for (const [name, snapshot] of image.snapshots)
    snapshots.set(name, { at: snapshot.at, ...build(snapshot.state, snapshot.origin) });
  return { ...build(image.live, image.origin), snapshots };
}

/** What a state only in the file changed, as its next request would load it (without keeping it). */
export function fileSummary(key: string, image: TokenImage): StateSummary {
  const snapshots = [...image.snapshots].map(([name, { at, state }]) => infoOf(name, { at, changed: state.keys() }));
  const changed = [...image.live.keys()];
  return {
    key,
    changed,
    snapshots,
    bytes: 0,
    where: 'file',
    durable: true,
    fromFile: true,
    origin: originOf(image.origin),
  };
}

/** The summaries of the states only in the file, each kept with the stamp it was read at. */
export class FileSummaries {
  private readonly kept = new Map<string, { stamp: string; summary: StateSummary }>();

  constructor(private readonly persistence: Persistence) {}

  /**
   * The summaries of the states in the file (`tokens`, every one it has) that are not `loaded`,
   * each read again only where its stamp changed; what is kept of a state the file no longer has
   * (a reset without snapshots drops its lines) is forgotten. A state loaded keeps its summary: it
   * is still good if the state is evicted again before it writes.
   */
  list(tokens: string[], loaded: Set<string>): StateSummary[] {
    if (this.kept.size > 0) {
      const listed = new Set(tokens);
      for (const key of this.kept.keys()) if (!listed.has(key)) this.kept.delete(key);
    }
    return tokens.filter((key) => !loaded.has(key)).map((key) => this.summary(key));
  }

  private summary(key: string): StateSummary {
    const stamp = this.persistence.stamp?.(key);
    const kept = this.kept.get(key);
    if (stamp !== undefined && kept?.stamp === stamp) return { ...kept.summary };
    const summary = fileSummary(key, this.persistence.load(key) ?? emptyImage());
    if (stamp !== undefined) this.kept.set(key, { stamp, summary });
    return { ...summary };
  }
}
