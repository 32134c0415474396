/** Writes of content records: tickets, pages, metadata definitions, gift cards. */
import { money } from '../model/catalogue.ts';
import type { Rec } from '../model/index.ts';
import { createPrng } from '../prng.ts';
import type { WriteDecl } from '../resources.ts';
import { assignDeclared, clone, maxId, refuse } from './common.ts';

export const CONTENT_WRITES: Record<string, WriteDecl> = {
  updateTicket: {
    kind: 'write',
    collection: 'tickets',
    param: 'id',
    effect:
      'Sets the fields sent (`comment` appends a comment: `body`, `is_public`, `from_email` taken from it when they are a string/boolean); `updated_at` = now.',
    run: ({ record, body, bodyProperties, now }) => {
      assignDeclared(record, body, bodyProperties, ['comment']);
      if (body.comment && typeof body.comment === 'object') {
        const comments = Array.isArray(record.comments) ? (record.comments as Rec[]) : [];
        const c = body.comment as Rec;
        comments.push({
          attachments: [],
          author: record.assignee ?? record.requester ?? null,
          body: typeof c.body === 'string' ? c.body : JSON.stringify(c),
          created_at: now,
          from_email: typeof c.from_email === 'string' ? c.from_email : null,
          id: maxId(comments) + 1,
          is_public: typeof c.is_public === 'boolean' ? c.is_public : true,
        });
        record.comments = comments;
      }
      record.updated_at = now;
      return { ok: true, body: record, changes: [['tickets', record]] };
    },
  },
  updatePage: {
    kind: 'write',
    collection: 'pages',
    param: 'id',
    effect: 'Replaces the fields sent (`title` required); fields left out keep their value.',
    run: ({ record, body, bodyProperties }) => {
      assignDeclared(record, body, bodyProperties);
      return { ok: true, body: record, changes: [['pages', record]] };
    },
  },
  updateMetadataDefinition: {
    kind: 'write',
    collection: 'metadata',
    param: 'id',
    effect: 'Sets the fields sent; `updated_at` = now.',
    run: ({ record, body, bodyProperties, now }) => {
      assignDeclared(record, body, bodyProperties);
      record.updated_at = now;
      return { ok: true, body: record, changes: [['metadata', record]] };
    },
  },
  createGiftCard: {
    kind: 'write',
    collection: 'giftCards',
    effect:
      'Creates a gift card with the next free id: `initial` = `balance` = the amount sent (2 decimals, at least 0.01: the pattern allows a minus, the mock refuses it), a new code, `user` kept when it is an object, else null.',
    run: ({ state, body, now, seed }) => {
      const amount = Number(body.initial);
      if (!Number.isFinite(amount) || !/\d/.test(String(body.initial))) {
        return refuse('body.initial', 'pattern', `"${body.initial}" is not an amount`);
      }
      if (Math.round(amount * 100) < 1) {
        return refuse(
          'body.initial',
          'minimum',
          `"${body.initial}": a gift card's initial amount must be at least 0.01`,
        );
      }
      const id = state.nextKey('giftCards');
      const prng = createPrng(`${seed}/gift-card/${id}`);
      const code = `GC-${prng.chars(4)}-${prng.chars(4)}-${prng.chars(4)}`;
      const card: Rec = {
        id,
        code,
        last_four: code.slice(-4),
        currency: body.currency,
        initial: money(amount),
        balance: money(amount),
        created_at: now,
        updated_at: now,
        disabled_at: null,
        expired_at: body.expired_at ?? null,
        user: body.user && typeof body.user === 'object' && !Array.isArray(body.user) ? clone(body.user) : null,
      };
      // A field the contract may add that the write does not set: as the first card has it.
      const template = state.list('giftCards')[0] ?? {};
      for (const name in template) if (!Object.hasOwn(card, name)) card[name] = clone(template[name]);
      return { ok: true, body: card, changes: [['giftCards', card]] };
    },
  },
};
