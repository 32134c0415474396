// Type tests of the typed MSW overrides: a path the API does not have, a method a path does not
// have, a field the answer does not have or of the wrong type, must not compile.
import { describe, expectTypeOf, it } from 'vitest';
import type { Ticket } from '../../generated/types/unstable.ts';
import { override } from '../../src/msw/overrides.ts';

declare const ticket: Ticket;

describe('override', () => {
  it('types path parameters, query and body from the contract', () => {
    override('get', '/tickets/{id}/', ({ params }) => {
      expectTypeOf(params.id).toEqualTypeOf<number>();
      return ticket;
    });
    override('get', '/subscriptions/', ({ query, next }) => {
      expectTypeOf(query.status).toEqualTypeOf<
        ('active' | 'past_due' | 'canceled' | 'retrying' | 'paused')[] | undefined
      >();
      return next();
    });
    override('patch', '/tickets/{id}/', ({ body }) => {
      expectTypeOf(body.subject).toEqualTypeOf<string | undefined>();
      return { ...ticket, subject: body.subject ?? ticket.subject };
    });
    override('get', '/orders/{number}/fulfillments/', ({ params }) => {
      expectTypeOf(params.number).toEqualTypeOf<string>();
      return new Response(null, { status: 404 });
    });
  });

  it('refuses an unknown path, a wrong method and a wrong answer', () => {
    // @ts-expect-error: no such path
    override('get', '/tickets/', () => ticket);
    // @ts-expect-error: /store/ has no PATCH
    override('patch', '/store/', () => []);
    // @ts-expect-error: a ticket's status is one of its states, not any string
    override('get', '/tickets/{id}/', () => ({ ...ticket, status: 'archived' }));
    // @ts-expect-error: a ticket's tags are a list of strings
    override('get', '/tickets/{id}/', () => ({ ...ticket, tags: 'vip' }));
    // @ts-expect-error: the answer of GET /store/ is an array of stores, not a ticket
    override('get', '/store/', () => ticket);
  });
});
