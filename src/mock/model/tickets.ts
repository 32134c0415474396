/** Tickets 1..50: every (`status`, `priority`) pair, each about one order, with one comment. */
import { assignDeclared, maxId } from '../writes/common.ts';
import { at, day, inTurn, PRODUCTS, SUBJECTS, TICKET_PRIORITIES, TICKET_STATUSES } from './catalogue.ts';
import { copyAtKey } from './example-records.ts';
import type { StoredTicket } from './records.ts';
import type { DeclaredCollection } from './types.ts';

type TicketComment = StoredTicket['comments'][number];

export const tickets: DeclaredCollection<'tickets'> = {
  name: 'tickets',
  key: 'id',
  singular: 'ticket',
  schema: { component: 'Ticket' },
  operations: {
    getTicket: { kind: 'get', param: 'id' },
    updateTicket: {
      kind: 'write',
      param: 'id',
      run: ({ record, body, bodyProperties, now }) => {
        assignDeclared(record, body, bodyProperties, ['comment']);
        if (body.comment && typeof body.comment === 'object') {
          const comments: TicketComment[] = Array.isArray(record.comments) ? record.comments : [];
          const c = body.comment;
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
  },
  atExampleKey: (key, context) => [['tickets', copyAtKey(tickets, key, context)]],
  relations: [
    { name: 'order', to: 'orders', keys: (r) => (r.order === null || r.order === undefined ? [] : [r.order]) },
  ],
  seed: {
    count: 50,
    record: (i, { prng, templates, store, users }) => {
      const user = prng.pick(users);
      const created = at(prng.int(0, 140) * day + prng.int(0, day));
      const record = templates.recordOf('updateTicket', 'Ticket');
      const orders = store.orders ?? [];
      return Object.assign(record, {
        id: i,
        status: inTurn(TICKET_STATUSES, i - 1),
        priority: inTurn(TICKET_PRIORITIES, Math.floor((i - 1) / TICKET_STATUSES.length)),
        order: orders[(i - 1) % orders.length]?.number,
        requester: user.id,
        from_email: user.email,
        subject: prng.pick(SUBJECTS),
        created_at: created,
        updated_at: created,
        assignee: i % 6 === 0 ? null : prng.int(1, 5),
        products: [prng.pick(PRODUCTS).id],
        tags: i % 3 === 0 ? ['shipping'] : [],
        comments: [
          {
            ...(record.comments?.[0] ?? {}),
            id: i * 10,
            attachments: [],
            author: user.id,
            body: 'Hello, I have a question about my order.',
            created_at: created,
            from_email: user.email,
            is_public: true,
          },
        ],
      });
    },
  },
};
