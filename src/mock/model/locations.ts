/**
 * Locations: where fulfillment orders are assigned and stock is held. Not an API resource of their
 * own (no operation lists them); their ids are those of the contract's examples (12, 14, 31) and 40.
 */
import { LOCATION_IDS, location } from './catalogue.ts';
import type { DeclaredCollection } from './types.ts';

export const locations: DeclaredCollection<'locations'> = {
  name: 'locations',
  key: 'id',
  singular: 'location',
  operations: {},
  relations: [],
  seed: {
    count: LOCATION_IDS.length,
    record: (index, { templates }) =>
      location(templates.of('listFulfillmentOrders').results?.[0]?.assigned_location ?? {}, index - 1),
  },
};
