/** Gift cards 1..40 (`POST /gift-cards/` adds the next ids): a code, an initial amount, a balance. */
import { at, day, money } from './catalogue.ts';
import type { CollectionDecl } from './types.ts';

export const giftCards: CollectionDecl = {
  name: 'giftCards',
  key: 'id',
  singular: 'gift card',
  schema: { operationId: 'createGiftCard', shape: 'body' },
  servedBy: ['createGiftCard'],
  relations: [],
  seed: {
    count: 40,
    record: (i, { prng, templates, users }) => {
      const code = `GC-${prng.chars(4)}-${prng.chars(4)}-${prng.chars(4)}`;
      const initial = money(prng.pick([10, 25, 50, 100]));
      const created = at(prng.int(0, 140) * day);
      return {
        ...templates.of('createGiftCard'),
        id: i,
        code,
        last_four: code.slice(-4),
        currency: i % 5 === 0 ? 'CHF' : 'EUR',
        initial,
        balance: i % 3 === 0 ? money(Number(initial) / 2) : initial,
        created_at: created,
        updated_at: created,
        disabled_at: null,
        expired_at: at(500 * day + prng.int(0, 200) * day),
        user: i % 2 === 0 ? structuredClone(prng.pick(users)) : null,
      };
    },
  },
};
