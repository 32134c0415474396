// A strict consumer (`noUncheckedIndexedAccess` here under `tsc -p .`; the package test adds
// `exactOptionalPropertyTypes`, TypeScript 5.9 and 7, from the tarball) reads the structural fields with no
// `?.` and no `??`: a page's `results` iterates as it is, a record's `id` is a number; so do the
// fields the staging recording showed never null (openapi/changelogs, docs/fidelity.md). The
// others keep the nullability policy (`T | null`): the `@ts-expect-error` lines prove it.
import { describe, expectTypeOf, it } from 'vitest';
import type * as V2023 from '../../generated/types/2023-02-10.ts';
import type * as V2024 from '../../generated/types/2024-04-01.ts';
import type * as Unstable from '../../generated/types/unstable.ts';
import { createAdminClient, unwrap } from '../../src/client/index.ts';

const client = createAdminClient({ baseUrl: 'https://shop.example.com/api/admin', token: 'token' });

describe('the structural fields are not nullable', () => {
  it('iterates page.results and reads record.id with no ? or ??', async () => {
    const page = unwrap(await client.GET('/subscriptions/'));
    const ids: number[] = [];
    for (const subscription of page.results) ids.push(subscription.id);
    const first = page.results[0]; // an index may be out of range (noUncheckedIndexedAccess)
    expectTypeOf(first).toEqualTypeOf<V2024.Subscription | undefined>();
    const lines = page.results.flatMap((s) => s.lines ?? []); // `lines` is an ordinary field: nullable
    expectTypeOf(lines.map((line) => line.id)).toEqualTypeOf<number[]>();

    const old = unwrap(await client.withVersion('2023-02-10').GET('/subscriptions/'));
    expectTypeOf(old.results.map((s) => s.id)).toEqualTypeOf<number[]>();
    const ticket = unwrap(await client.withVersion('unstable').GET('/tickets/{id}/', { params: { path: { id: 1 } } }));
    expectTypeOf(ticket.id).toEqualTypeOf<number>();
  });

  it('types every page envelope and every record id without null', () => {
    expectTypeOf<V2024.PageEnvelope['results']>().toEqualTypeOf<unknown[]>();
    expectTypeOf<V2024.SubscriptionPage['results']>().toExtend<V2024.Subscription[]>();
    expectTypeOf<V2024.TransactionPage['results']>().toExtend<V2024.Transaction[]>();
    expectTypeOf<V2024.FulfillmentOrderPage['results']>().toExtend<V2024.FulfillmentOrder[]>();
    expectTypeOf<V2023.SubscriptionPage['results']>().toExtend<V2023.Subscription[]>();
    expectTypeOf<V2024.RecordId>().toEqualTypeOf<number>();
    expectTypeOf<V2024.Ticket['id']>().toEqualTypeOf<number>();
    expectTypeOf<V2023.GiftCard['id']>().toEqualTypeOf<number>();
    expectTypeOf<V2023.StockRecord['id']>().toEqualTypeOf<number>();
    expectTypeOf<Unstable.Ticket['id']>().toEqualTypeOf<number>();
  });

  it('reads plainly what the recording never saw null, keeps nullable what it did', () => {
    const record = {} as V2024.Subscription;
    const transaction = {} as V2024.Transaction;
    expectTypeOf(transaction.id).toEqualTypeOf<number>();
    // @ts-expect-error a reference to another record is nullable (Id), unlike the record's own id
    const parent: number = transaction.parent_id;
    // @ts-expect-error the staging recording showed this field null: it stays nullable
    const message: string = record.cancel_reason_other_message;
    // Never null in the staging recording: no ?? needed.
    const status: string = record.status;
    for (const line of record.lines) void line;
    // An open set of known values: `("day" | "month" | "week" | "year") | string`, any string accepted.
    expectTypeOf(record.interval).toEqualTypeOf<string>();
    expectTypeOf(transaction.parent_id).toEqualTypeOf<number | null>();
    expectTypeOf<V2024.Id>().toEqualTypeOf<number | null>();
    void [parent, message, status];
  });
});
