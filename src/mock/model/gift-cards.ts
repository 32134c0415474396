/** Gift cards 1..40 (`POST /gift-cards/` adds the next ids): a code, an initial amount, a balance. */
import { CODE_CHARS, createPrng } from '../prng.ts';
import { clone, refuse } from '../writes/common.ts';
import { at, day, money } from './catalogue.ts';
import type { StoredGiftCard } from './records.ts';
import type { AnyRecord, DeclaredCollection, WriteRefusal } from './types.ts';

/** An amount as the API writes it (`50.00`, at most 14 digits): the money of its number is itself. */
const WRITTEN_AMOUNT = /^(?:0|[1-9]\d{0,11})\.\d\d$/;

/** A new card's amount as the API writes it, or the refusal of one that is no amount or under 0.01. */
function initialOf(given: unknown): string | WriteRefusal {
  // The usual spelling is taken as written (no number parsed, none formatted).
  if (typeof given === 'string' && WRITTEN_AMOUNT.test(given)) return given === '0.00' ? tooSmall(given) : given;
  const amount = Number(given);
  if (!Number.isFinite(amount) || !/\d/.test(String(given)))
    return refuse('body.initial', 'pattern', `"${given}" is not an amount`);
  if (Math.round(amount * 100) < 1) return tooSmall(given);
  return money(amount);
}

const tooSmall = (given: unknown) =>
  refuse('body.initial', 'minimum', `"${given}": a gift card's initial amount must be at least 0.01`);

/** `G`, `C` and `-`. */
const [G, C, DASH] = [71, 67, 45] as const;

/**
 * A new card's code, `GC-XXXX-XXXX-XXXX` with the characters of three `prng.chars(4)` in turn,
 * made as one string (not twelve characters added one by one and joined).
 */
export function newCardCode(seed: string): string {
  const prng = createPrng(seed);
  const c = () => CODE_CHARS.charCodeAt(prng.int(0, CODE_CHARS.length - 1));
  // Arguments are evaluated left to right: the characters come in the order chars() drew them.
  return String.fromCharCode(G, C, DASH, c(), c(), c(), c(), DASH, c(), c(), c(), c(), DASH, c(), c(), c(), c());
}

/** The template's fields a new card does not set, found once per template (the seeded first card). */
let unset: { template: AnyRecord; names: string[] } | undefined;
function unsetFields(template: AnyRecord, card: StoredGiftCard): string[] {
  if (unset?.template !== template)
    unset = { template, names: Object.keys(template).filter((name) => !Object.hasOwn(card, name)) };
  return unset.names;
}

export const giftCards: DeclaredCollection<'giftCards'> = {
  name: 'giftCards',
  key: 'id',
  singular: 'gift card',
  schema: { component: 'GiftCard' },
  operations: {
    createGiftCard: {
      kind: 'write',
      run: ({ state, body, now, seed }) => {
        const initial = initialOf(body.initial);
        if (typeof initial !== 'string') return initial;
        const id = state.nextKey('giftCards');
        const code = newCardCode(`${seed}/gift-card/${id}`);
        const card: StoredGiftCard = {
          id,
          code,
          last_four: code.slice(-4),
          currency: body.currency,
          initial,
          balance: initial,
          created_at: now,
          updated_at: now,
          disabled_at: null,
          expired_at: body.expired_at ?? null,
          user: body.user && typeof body.user === 'object' && !Array.isArray(body.user) ? clone(body.user) : null,
        };
        // A field the contract may add that the write does not set: as the first card has it.
        const template: AnyRecord = state.list('giftCards')[0] ?? {};
        const fields: AnyRecord = card; // set by name: the template's fields are not known here
        for (const name of unsetFields(template, card)) fields[name] = clone(template[name]);
        return { ok: true, body: card, changes: [['giftCards', card]] };
      },
    },
  },
  relations: [],
  seed: {
    count: 40,
    record: (i, { prng, templates, users }) => {
      const code = `GC-${prng.chars(4)}-${prng.chars(4)}-${prng.chars(4)}`;
      const initial = money(prng.pick([10, 25, 50, 100]));
      const created = at(prng.int(0, 140) * day);
      return {
        ...templates.recordOf('createGiftCard', 'GiftCard'),
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
