/**
 * A coverage report (./report.ts) as text for a terminal (`store-admin-contract coverage`): the
 * percentage, each dimension's, then what was never exercised, grouped by operation and version.
 */
import type { CoverageReport, OperationCoverage } from './report.ts';
import { DIMENSIONS } from './universe.ts';

const percent = (value: number) => `${(Math.floor(value * 10) / 10).toFixed(1)}%`;

/** Lines no wider than this (but for one long name), for a terminal. */
const WIDTH = 100;

/** `names` after `label`, comma-separated, wrapped under the first name. */
function wrapped(label: string, names: string[]): string[] {
  const indent = ' '.repeat(label.length);
  const lines = [label];
  for (const [i, name] of names.entries()) {
    const text = i < names.length - 1 ? `${name},` : name;
    const last = lines.length - 1;
    const line = lines[last] as string;
    if (line.length > indent.length && line.length + 1 + text.length > WIDTH) lines.push(indent + text);
    else lines[last] = line.length > indent.length ? `${line} ${text}` : line + text;
  }
  return lines;
}

/** One operation's items never exercised, by dimension. */
function neverLines(operation: OperationCoverage): string[] {
  const lines: string[] = [];
  for (const dimension of DIMENSIONS) {
    const never = operation.items.filter((i) => i.dimension === dimension && i.count === 0).map((i) => i.name);
    if (never.length > 0) lines.push(...wrapped(`    ${dimension.padEnd(9)} `, never));
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
