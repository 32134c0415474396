/**
 * The public view of the declared model (exported by `@store-admin/contract/mock`): per collection
 * its name, key, the contract schema its records satisfy and the operations whose responses carry
 * them, so that a tool (a recording proxy, a snapshot) can put records of real traffic into the
 * right collection by key. Plain data, a copy: changing it changes nothing in the mock.
 */
import { componentVersion } from '../../contract/index.ts';
import type { FixtureCollection } from './fixtures.ts';
import { MODEL } from './index.ts';

export interface CollectionView {
  /** Name as `--data` files and snapshots hold it, e.g. `fulfillmentOrders`. */
  name: string;
  /** Key field: `id`, or `number` for orders (a numeric string). */
  key: string;
  singular: string;
  /**
   * The schema its records satisfy: schema component `component` (`#/components/schemas/<component>`)
   * of the bundle of `version`, the newest version defining it (contract version order).
   */
  schema: { component: string; version: string } | null;
  /** Operations whose 200 responses carry records of this collection. */
  servedBy: string[];
  /** Records of this collection nested in a field of other operations' responses. */
  nestedIn: { operationId: string; field: string }[];
  /** References to other collections: the relation's name and the collection it names by key. */
  relations: { name: string; to: string }[];
  /** Records the seed generates (keys 1..seeded, besides the contract's example records). */
  seeded: number;
}

/** Every collection of the mock's store (those with `schema: null` are internal, e.g. locations). */
export function describeModel(): CollectionView[] {
  return MODEL.map((c) => ({
    name: c.name,
    key: c.key,
    singular: c.singular,
    schema: c.schema ? { component: c.schema.component, version: componentVersion(c.schema.component) } : null,
    servedBy: [...c.servedBy],
    nestedIn: (c.nestedIn ?? []).map((n) => ({ ...n })),
    relations: c.relations.map((r) => ({ name: r.name, to: r.to })),
    seeded: c.seed.count,
  }));
}

/** Records seeded per collection (keys 1..count). */
export const SEEDED_COUNTS = Object.fromEntries(MODEL.map((c) => [c.name, c.seed.count])) as Readonly<
  Record<FixtureCollection | 'locations', number>
>;
