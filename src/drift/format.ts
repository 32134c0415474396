/**
 * The readable form of a drift report: a one-line summary per kind in the order to fix them, then
 * the findings grouped by operation (the operation with the most urgent finding first), then a
 * verdict line. Free-text fields are counted, never listed (their values are in `--json`).
 */
import { DRIFT_KINDS, type DriftKind, type DriftReport, type Finding, INFORMATION } from './findings.ts';
import type { Proposal } from './propose.ts';

/** Longest detail shown in the table; `--json` has everything. */
const DETAIL_WIDTH = 110;

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const ORDER = Object.keys(DRIFT_KINDS) as DriftKind[];
const clip = (text: string) => (text.length > DETAIL_WIDTH ? `${text.slice(0, DETAIL_WIDTH - 1)}…` : text);

function summary(report: DriftReport): string[] {
  const counts = new Map<DriftKind, number>();
  for (const f of report.findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const rows = ORDER.filter((kind) => counts.has(kind)).map((kind) => [
    kind,
    String(counts.get(kind)),
    DRIFT_KINDS[kind],
  ]);
  const free = report.classes.filter((c) => c.class === 'free-text').length;
  if (free > 0) {
    rows.push([
      'free text',
      String(free),
      'allowed values not shown, the values seen are free text (not listed; --json)',
    ]);
  }
  return rows.length === 0
    ? []
    : ['', 'Summary, in the order to fix:', '', ...table(['kind', 'count', 'meaning'], rows)];
}

function byOperation(findings: Finding[]): [string, Finding[]][] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) groups.set(f.operation, [...(groups.get(f.operation) ?? []), f]);
  const urgency = (list: Finding[]) => Math.min(...list.map((f) => ORDER.indexOf(f.kind)));
  return [...groups].sort(([a, x], [b, y]) => urgency(x) - urgency(y) || a.localeCompare(b));
}

export function formatDrift(report: DriftReport): string {
  const operations = new Set(report.fields.map((f) => f.operation)).size;
  const out = [
    `Drift of ${report.recording}: ${report.exchanges} recorded exchanges, ${operations} operations, ${report.fields.length} fields observed${report.replayed ? `, ${report.replayed.requests} reads replayed against ${report.replayed.baseUrl}` : ''}.`,
    ...summary(report),
  ];
  for (const [operation, findings] of byOperation(report.findings)) {
    const rows = findings.map((f) => {
      const also = f.alsoIn?.length ? ` (also ${f.alsoIn.length} other place${f.alsoIn.length > 1 ? 's' : ''})` : '';
      return [f.kind, f.version, f.field, String(f.count), clip(`${f.detail}${also}`)];
    });
    out.push('', operation, ...table(['kind', 'version', 'field', 'seen', 'detail'], rows).map((l) => `  ${l}`));
  }
  const drift = report.findings.filter((f) => !INFORMATION.has(f.kind)).length;
  out.push(
    '',
    drift === 0
      ? 'No drift: the recorded API does what the contract says.'
      : `${drift} drift findings${report.findings.length > drift ? `, ${report.findings.length - drift} for information` : ''}.`,
  );
  return out.join('\n');
}

/** The proposal: each edit with the guard's verdict, each finding declined with its reason, the diff. */
export function formatProposal(proposal: Proposal, diff: string, written: boolean): string {
  const out = [
    `${proposal.edits.length} edits proposed${written ? ' and written' : ' (dry run: --write applies them)'}:`,
    '',
  ];
  out.push(
    ...table(
      ['guard', 'kind', 'file', 'edit'],
      proposal.edits.map((e) => [e.verdict ?? 'none', e.finding.kind, e.file, e.description]),
    ),
  );
  if (proposal.declined.length > 0) {
    out.push('', `${proposal.declined.length} findings not proposed:`, '');
    out.push(
      ...table(
        ['kind', 'operation', 'field', 'reason'],
        proposal.declined.map(({ finding: f, reason }) => [f.kind, `${f.operation} ${f.version}`, f.field, reason]),
      ),
    );
  }
  const breaking = proposal.edits.filter((e) => e.verdict === 'breaking');
  for (const edit of breaking)
    out.push('', `breaking: ${edit.description}`, ...(edit.changes ?? []).map((c) => `  ${c}`));
  if (diff) out.push('', diff.trimEnd());
  return out.join('\n');
}
