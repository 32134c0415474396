/**
 * Formats the guard's findings for a CI log: per API version a table (breaking, operation,
 * location, change) and a final line with the counts.
 */
import type { Change, Severity } from './model.ts';

export interface VersionResult {
  version: string;
  /** `compared`: in both; `new`: absent at the base ref; `removed`: absent now. */
  status: 'compared' | 'new' | 'removed';
  operations: number;
  changes: Change[];
}

const LABEL: Record<Severity, string> = { breaking: 'yes', warning: 'warn', info: 'no' };
const ORDER: Record<Severity, number> = { breaking: 0, warning: 1, info: 2 };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function countBySeverity(results: readonly VersionResult[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { breaking: 0, warning: 0, info: 0 };
  for (const r of results) for (const c of r.changes) counts[c.severity]++;
  return counts;
}

function table(changes: readonly Change[]): string[] {
  const rows = [...changes]
    .sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.operation.localeCompare(b.operation))
    .map((c) => [LABEL[c.severity], c.operation, c.location || '(operation)', c.message]);
  const head = ['breaking', 'operation', 'location', 'change'];
  // A loop, not Math.max(...rows): spreading a long list overflows the call stack.
  const widths = head.map((h, i) =>
    Math.min(
      60,
      rows.reduce((w, r) => Math.max(w, (r[i] ?? '').length), h.length),
    ),
  );
  const line = (cells: string[]) =>
    `  ${cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()}`;
  return [
    line(head),
    line(widths.map((w, i) => '-'.repeat(i === widths.length - 1 ? (head[i]?.length ?? 0) : w))),
    ...rows.map(line),
  ];
}

/**
 * The report; `release` names the breaking package release (`0.1.0 -> 0.2.0`) that allows the
 * breaking changes, if there is one.
 */
export function formatReport(base: string, head: string, results: readonly VersionResult[], release?: string): string {
  const out: string[] = [`Breaking-change check of generated/openapi/<version>.json: ${base} -> ${head}`, ''];
  for (const r of results) {
    if (r.status === 'new') {
      out.push(`${r.version}: new API version (${plural(r.operations, 'operation')}), nothing to break`, '');
      continue;
    }
    if (r.status === 'removed') {
      out.push(`${r.version}: API version removed (it had ${plural(r.operations, 'operation')})`);
      out.push(...table(r.changes), '');
      continue;
    }
    if (r.changes.length === 0) {
      out.push(`${r.version}: no changes (${plural(r.operations, 'operation')})`, '');
      continue;
    }
    const counts = countBySeverity([r]);
    out.push(
      `${r.version}: ${plural(r.changes.length, 'change')}, ${counts.breaking} breaking, ${plural(counts.warning, 'warning')}`,
    );
    out.push(...table(r.changes), '');
  }
  const counts = countBySeverity(results);
  const total = counts.breaking + counts.warning + counts.info;
  const verdict =
    counts.breaking === 0
      ? 'OK'
      : release
        ? `OK: allowed by the breaking package release ${release}`
        : 'FAIL: breaking changes within an existing API version (bump the major version to allow them)';
  out.push(
    `${plural(results.length, 'version')}, ${plural(total, 'change')}: ${counts.breaking} breaking, ` +
      `${plural(counts.warning, 'warning')}, ${counts.info} non-breaking. ${verdict}`,
  );
  return out.join('\n');
}
