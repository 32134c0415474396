// What `drift` learns from a recording: the statistics per operation, version and field, the
// classification of fields whose allowed values are not shown (closed set, free text, too few),
// the new findings (never null, closed set, status, presence), and the report's order; over small
// recordings written here and over the shared staging recording (`shared/recordings/` beside the repository).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deref, type Json, loadBundles } from '../../src/contract/index.ts';
import { analyzeRecording, CLOSED_SET, type DriftReport, formatDrift, NEVER_NULL_MIN } from '../../src/drift/index.ts';
import { RECORDING_FORMAT, type Recording } from '../../src/proxy/index.ts';
import { SHARED_RECORDING, withoutSharedRecording } from '../helpers/shared-recording.ts';

const bundles = loadBundles();

function example(version: string, path: string): Json {
  const bundle = bundles.find((b) => b.version === version);
  const content = bundle?.document.paths[path].get.responses['200'].content['application/json'];
  return structuredClone(deref(bundle?.document, Object.values<Json>(content.examples)[0]).value);
}

const tickets = (
  n: number,
  edit: (ticket: Json, i: number) => void,
  status = 200,
): Recording['$recording']['exchanges'] =>
  Array.from({ length: n }, (_, i) => {
    const body = example('unstable', '/tickets/{id}/');
    edit(body, i);
    return { operation: 'getTicket', version: 'unstable', method: 'GET', target: '/tickets/7/', status, body };
  });

/** Subscription transaction pages (two transactions each); `type`'s allowed values are not shown. */
const transactions = (n: number, type: (i: number) => string): Recording['$recording']['exchanges'] =>
  Array.from({ length: n }, (_, i) => {
    const body = example('2024-04-01', '/subscriptions/{id}/transactions/');
    body.results = body.results.map((t: Json, k: number) => ({ ...t, type: type(2 * i + k) }));
    const target = '/subscriptions/48213/transactions/';
    return {
      operation: 'listSubscriptionTransactions',
      version: '2024-04-01',
      method: 'GET',
      target,
      status: 200,
      body,
    };
  });

const recordingOf = (exchanges: Recording['$recording']['exchanges']) =>
  ({ $recording: { format: RECORDING_FORMAT, exchanges } }) as unknown as Recording;

const kinds = (report: DriftReport, field: string) =>
  report.findings.filter((f) => f.field === field).map((f) => f.kind);

describe('drift learns each field', () => {
  it('counts observations, nulls, absences, values, min/max, formats and array lengths', () => {
    const report = analyzeRecording(
      recordingOf(
        tickets(4, (t, i) => {
          t.assignee = i === 0 ? null : i * 10;
          t.tags = Array.from({ length: i }, () => 'x');
          if (i === 3) delete t.subject;
        }),
      ),
      bundles,
    );
    const field = (name: string) => report.fields.find((f) => f.field === name);
    expect(field('body.assignee')).toMatchObject({ observations: 4, present: 4, nulls: 1, min: 10, max: 30 });
    expect(field('body.assignee')?.values).toEqual({ '10': 1, '20': 1, '30': 1 });
    expect(field('body.subject')).toMatchObject({ observations: 4, present: 3, absent: 1 });
    expect(field('body.tags')?.lengths).toEqual({ min: 0, max: 3 });
    expect(field('body.tags[]')).toMatchObject({ observations: 6, present: 6 });
    expect(field('body.created_at')?.formats).toEqual({ 'date-time': 4 });
    // channel's known values are stated (an open set since the staging recording): no longer open.
    expect(field('body.channel')?.declaration).toMatchObject({ at: 'Ticket#/properties/channel', open: false });
    expect(report.statuses).toEqual([{ operation: 'getTicket', version: 'unstable', statuses: { '200': 4 } }]);
  });

  it(`names a nullable field never null from ${NEVER_NULL_MIN} observations, not before`, () => {
    const few = analyzeRecording(recordingOf(tickets(NEVER_NULL_MIN - 1, () => undefined)), bundles);
    expect(kinds(few, 'body.assignee')).toEqual([]);
    const enough = analyzeRecording(
      recordingOf(
        tickets(NEVER_NULL_MIN, (t, i) => {
          if (i % 2) t.order = null;
        }),
      ),
      bundles,
    );
    const never = enough.findings.filter((f) => f.kind === 'never-null');
    expect(never.map((f) => f.field)).not.toContain('body.order'); // null once: not a finding
    const assignee = never.find((f) => f.field === 'body.assignee');
    expect(assignee).toMatchObject({ at: 'Ticket#/properties/assignee', count: NEVER_NULL_MIN });
    expect(assignee?.detail).toBe(`never null in ${NEVER_NULL_MIN} observations`);
  });

  it('tells a closed set from free text and from too few values (CLOSED_SET), and lists no free text', () => {
    const n = CLOSED_SET.minObservations / 2; // pages of two transactions
    const at = 'Transaction#/properties/type';
    const closed = analyzeRecording(recordingOf(transactions(n, (i) => ['sale', 'refund'][i % 2] as string)), bundles);
    const classOf = (r: DriftReport) => r.classes.find((c) => c.at === at);
    expect(classOf(closed)).toMatchObject({ class: 'closed', distinct: 2 });
    const finding = closed.findings.find((f) => f.kind === 'closed-set' && f.at === at);
    expect(finding).toMatchObject({ at, detail: `2 values: "refund" x${n}, "sale" x${n}` });
    const free = analyzeRecording(recordingOf(transactions(n, (i) => `filler words ${i}`)), bundles);
    expect(classOf(free)?.class).toBe('free-text');
    expect(kinds(free, 'body.results[].type')).toEqual([]);
    expect(formatDrift(free)).not.toContain('filler words');
    expect(formatDrift(free)).toMatch(/free text\s+1\s+allowed values not shown/);
    // A value seen fewer than minEach times makes it free text, however few the values.
    const rare = analyzeRecording(
      recordingOf(transactions(n, (i) => (i < CLOSED_SET.minEach - 1 ? 'rare' : 'sale'))),
      bundles,
    );
    expect(classOf(rare)?.class).toBe('free-text');
    const few = analyzeRecording(recordingOf(transactions(n - 1, () => 'sale')), bundles);
    expect(classOf(few)?.class).toBe('too-few');
  });

  it('names an undeclared status and orders the report by what to fix first, grouped by operation', () => {
    const report = analyzeRecording(
      recordingOf([...tickets(NEVER_NULL_MIN, () => undefined), ...tickets(1, () => undefined, 203)]),
      bundles,
    );
    expect(report.findings[0]).toMatchObject({ kind: 'status', operation: 'getTicket', field: 'status' });
    const text = formatDrift(report);
    expect(text).toMatch(
      /Summary, in the order to fix:\n\nkind\s+count\s+meaning\n-+.*\nstatus\s+1\s+.*\nnever-null\s+\d+/,
    );
    expect(text).toMatch(/\ngetTicket\n.*\n.*\n\s+status\s+unstable\s+status/);
  });
});

describe.skipIf(withoutSharedRecording)('drift over the shared staging recording', () => {
  const file = SHARED_RECORDING;
  // Read only when the suite runs (describe's body runs even when skipped).
  const report = withoutSharedRecording
    ? (undefined as unknown as ReturnType<typeof analyzeRecording>)
    : analyzeRecording(JSON.parse(readFileSync(file, 'utf8')) as Recording, bundles, file);

  it('after the adoption: exactly the findings docs/fidelity.md does not adopt, and no closed set left', () => {
    expect(report.exchanges).toBe(406);
    const gift = report.statuses.find((s) => s.operation === 'createGiftCard');
    expect(gift?.statuses).toEqual({ '201': 24 });
    const named = report.findings.map((f) => `${f.kind} ${f.at}`).sort();
    expect(named).toEqual(
      [
        'never-null Attribution#/properties/metadata', // spec: "free-form, may be null"
        'never-null OrderFulfillmentLineItemBase#/properties/returnable_quantity', // type not shown
        'never-null OrderFulfillmentLineItemBase#/properties/returned_quantity',
        'never-null Transaction#/properties/subscription', // subscription orders only
        'null Order#/properties/tags/items', // spec: "array of strings"
      ].sort(),
    );
    const classOf = (at: string) => report.classes.find((c) => c.at === at)?.class;
    expect(report.classes.filter((c) => c.class === 'closed')).toEqual([]);
    expect(classOf('SubscriptionBase#/properties/cancel_reason')).toBe('free-text');
    expect(classOf('TaxLineBase#/properties/source')).toBe('free-text');
    // Seen 8 times only: no verdict either way.
    expect(classOf('Order#/properties/payment_status')).toBe('too-few');
  });

  it('names a declaration once, at the operation that showed it most, with the other places', () => {
    const metadata = report.findings.filter((f) => f.at === 'Attribution#/properties/metadata');
    expect(metadata).toHaveLength(1);
    expect(metadata[0]?.operation).toBe('listSubscriptions');
    expect(metadata[0]?.alsoIn?.length).toBeGreaterThan(0);
  });
});
