/**
 * A coverage report (./report.ts) as text for a terminal (`store-admin-contract coverage`): the
 * percentage, each dimension's, then what was never exercised, grouped by operation and version.
 */
import type { CoverageReport, OperationCoverage } from './report.ts';
import { DIMENSIONS } from './universe.ts';

const percent = (value: number) => `${(Math.floor(value * 10) / 10).toFixed(1)}%`;

/** One operation's items never exercised, a line per dimension. */
function neverLines(operation: OperationCoverage): string[] {
  const lines: string[] = [];
  for (const dimension of DIMENSIONS) {
    const never = operation.items.filter((i) => i.dimension === dimension && i.count === 0).map((i) => i.name);
    if (never.length > 0) lines.push(`    ${dimension.padEnd(9)} ${never.join(', ')}`);
  }
  return lines;
}

export function formatCoverage(report: CoverageReport): string {
  const scope = report.scope === 'process' ? 'the whole process' : `token state ${report.state}`;
  const lines = [
    `Coverage of ${scope}: ${percent(report.percent)} (${report.covered} of ${report.total} items exercised; ${report.requests} requests)`,
  ];
  for (const dimension of DIMENSIONS) {
    const { covered, total, percent: p } = report.dimensions[dimension];
    lines.push(`  ${dimension.padEnd(9)} ${percent(p).padStart(6)}  (${covered} of ${total})`);
  }
  const untouched = report.operations.filter((o) => o.covered < o.total);
  lines.push('', untouched.length === 0 ? 'Every item was exercised.' : 'Never exercised, by operation:');
  for (const operation of untouched) {
    const { operation: id, version, method, path, covered, total } = operation;
    lines.push(`  ${id} ${version}  ${method} ${path}  (${covered} of ${total})`, ...neverLines(operation));
  }
  if (report.unrouted.length > 0)
    lines.push(
      '',
      `Requests no operation answered: ${report.unrouted.map((u) => `${u.status} × ${u.count}`).join(', ')}`,
    );
  return lines.join('\n');
}
