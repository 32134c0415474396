/** Tickets 1..50: every (`status`, `priority`) pair, each about one order, with one comment. */
import { at, day, PRODUCTS, SUBJECTS, TICKET_PRIORITIES, TICKET_STATUSES } from './catalogue.ts';
import { copyAtKey } from './examples.ts';
import type { CollectionDecl } from './types.ts';

export const tickets: CollectionDecl = {
  name: 'tickets',
  key: 'id',
  singular: 'ticket',
  schema: { operationId: 'getTicket', shape: 'body' },
  servedBy: ['getTicket', 'updateTicket'],
  addressedBy: ['getTicket', 'updateTicket'],
  atExampleKey: (key, context) => [['tickets', copyAtKey(tickets, key, context)]],
  relations: [
    { name: 'order', to: 'orders', keys: (r) => (r.order === null || r.order === undefined ? [] : [r.order]) },
  ],
  seed: {
    count: 50,
    record: (i, { prng, templates, store, users }) => {
      const user = prng.pick(users);
      const created = at(prng.int(0, 140) * day + prng.int(0, day));
      const record = templates.of('updateTicket');
      const orders = store.orders ?? [];
      return Object.assign(record, {
        id: i,
        status: TICKET_STATUSES[(i - 1) % TICKET_STATUSES.length],
        priority: TICKET_PRIORITIES[Math.floor((i - 1) / TICKET_STATUSES.length) % TICKET_PRIORITIES.length],
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
