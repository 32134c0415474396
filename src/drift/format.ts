/** The readable form of a drift report: one table of findings, one of suggestions, a verdict line. */
import { DRIFT_KINDS, type DriftReport } from './findings.ts';

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

export function formatDrift(report: DriftReport): string {
  const out = [
    `Drift of ${report.recording}: ${report.exchanges} recorded exchanges${report.replayed ? `, ${report.replayed.requests} reads replayed against ${report.replayed.baseUrl}` : ''}.`,
  ];
  if (report.findings.length > 0) {
    out.push(
      '',
      ...table(
        ['kind', 'operation', 'version', 'field', 'seen', 'detail'],
        report.findings.map((f) => [f.kind, f.operation, f.version, f.field, String(f.count), f.detail]),
      ),
    );
    const kinds = [...new Set(report.findings.map((f) => f.kind))];
    out.push('', ...kinds.map((kind) => `  ${kind}: ${DRIFT_KINDS[kind]}`));
  }
  if (report.suggestions.length > 0) {
    out.push(
      '',
      'Values seen of fields whose allowed values the spec does not show (candidates for the contract):',
      '',
    );
    out.push(
      ...table(
        ['operation', 'version', 'field', 'values seen'],
        report.suggestions.map((s) => [
          s.operation,
          s.version,
          s.field,
          Object.entries(s.values)
            .map(([v, n]) => `${v} x${n}`)
            .join(', '),
        ]),
      ),
    );
  }
  out.push(
    '',
    report.findings.length === 0
      ? 'No drift: the recorded API does what the contract says.'
      : `${report.findings.length} drift findings.`,
  );
  return out.join('\n');
}
