/**
 * What the proxy saw, per operation and version: exchanges, statuses, and violations counted by
 * field and rule (`GET /__proxy/report`, and the summary printed when it stops). Never holds a
 * header value, a query or a body: only operation names, versions, fields, rules and counts.
 */
import type { ExchangeViolation } from './check.ts';

export interface OperationReport {
  operation: string;
  version: string;
  exchanges: number;
  /** Exchanges per status the client got (`502`, `504` for the proxy's own). */
  statuses: Record<string, number>;
  violations: number;
  /** One line per field and rule, `side` telling request from response. */
  byField: { side: 'request' | 'response'; field: string; rule: string; count: number }[];
}

export interface ProxyReport {
  upstream: string;
  startedAt: string;
  exchanges: number;
  violations: number;
  /** Requests refused by `--strict` (never forwarded). */
  refused: number;
  /** Upstream answers with a 5xx status (passed through). */
  upstream5xx: number;
  /** The proxy's own 502 (upstream unreachable) and 504 (upstream timeout). */
  unreachable: number;
  timeouts: number;
  operations: OperationReport[];
  recording?: { file: string; records: number; exchanges: number; bytes: number; dropped: number; skipped: number };
}

/** One exchange's outcome, as the report counts it. */
export interface ExchangeOutcome {
  operation: string;
  version: string;
  status: number;
  request: ExchangeViolation[];
  response: ExchangeViolation[];
  kind?: 'refused' | 'unreachable' | 'timeout';
}

export class ReportBuilder {
  /** By operation, then version: two lookups, no key string built per exchange. */
  private readonly operations = new Map<string, Map<string, OperationReport>>();
  private readonly fields = new Map<string, OperationReport['byField'][number]>();
  private readonly totals = { exchanges: 0, violations: 0, refused: 0, upstream5xx: 0, unreachable: 0, timeouts: 0 };
  constructor(
    private readonly upstream: string,
    private readonly startedAt = new Date(),
  ) {}

  private entryOf(outcome: ExchangeOutcome): OperationReport {
    let versions = this.operations.get(outcome.operation);
    if (!versions) {
      versions = new Map();
      this.operations.set(outcome.operation, versions);
    }
    let entry = versions.get(outcome.version);
    if (!entry) {
      entry = {
        operation: outcome.operation,
        version: outcome.version,
        exchanges: 0,
        statuses: {},
        violations: 0,
        byField: [],
      };
      versions.set(outcome.version, entry);
    }
    return entry;
  }

  add(outcome: ExchangeOutcome): void {
    const entry = this.entryOf(outcome);
    entry.exchanges++;
    entry.statuses[outcome.status] = (entry.statuses[outcome.status] ?? 0) + 1;
    if (outcome.request.length > 0 || outcome.response.length > 0) this.addViolations(entry, outcome);
    this.totals.exchanges++;
    if (outcome.kind === 'refused') this.totals.refused++;
    if (outcome.kind === 'unreachable') this.totals.unreachable++;
    if (outcome.kind === 'timeout') this.totals.timeouts++;
    if (outcome.kind === undefined && outcome.status >= 500) this.totals.upstream5xx++;
  }

  /** The exchange's violations, counted by side, field and rule. */
  private addViolations(entry: OperationReport, outcome: ExchangeOutcome): void {
    for (const [side, list] of [
      ['request', outcome.request],
      ['response', outcome.response],
    ] as const) {
      for (const violation of list) {
        const lineKey = `${outcome.operation} ${outcome.version} ${side} ${violation.field} ${violation.rule}`;
        let line = this.fields.get(lineKey);
        if (!line) {
          line = { side, field: violation.field, rule: violation.rule, count: 0 };
          this.fields.set(lineKey, line);
          entry.byField.push(line);
        }
        line.count++;
        entry.violations++;
        this.totals.violations++;
      }
    }
  }

  report(recording?: ProxyReport['recording']): ProxyReport {
    const operations = [...this.operations.values()]
      .flatMap((versions) => [...versions.values()])
      .sort((a, b) => a.operation.localeCompare(b.operation) || a.version.localeCompare(b.version));
    return {
      upstream: this.upstream,
      startedAt: this.startedAt.toISOString(),
      ...this.totals,
      operations,
      ...(recording && { recording }),
    };
  }
}

/** The summary printed when the proxy stops: totals, then one line per operation with violations. */
export function formatSummary(report: ProxyReport): string {
  const lines = [
    `Proxy summary (upstream ${report.upstream}): ${report.exchanges} exchanges, ${report.violations} contract violations, ` +
      `${report.upstream5xx} upstream 5xx, ${report.unreachable} unreachable, ${report.timeouts} timeouts, ${report.refused} refused (--strict).`,
  ];
  for (const operation of report.operations) {
    const fields = operation.byField.map((f) => `${f.side} ${f.field} ${f.rule} x${f.count}`).join('; ');
    lines.push(
      `  ${operation.operation} [${operation.version}] ${operation.exchanges} exchanges, ${operation.violations} violations${fields ? `: ${fields}` : ''}`,
    );
  }
  if (report.recording) {
    const r = report.recording;
    lines.push(
      `  recorded ${r.records} records and ${r.exchanges} exchanges to ${r.file}` +
        `${r.dropped ? ` (${r.dropped} dropped beyond --record-limit or --record-max-bytes)` : ''}${r.skipped ? ` (${r.skipped} records skipped: they break the contract)` : ''}`,
    );
  }
  return lines.join('\n');
}
