/** The one table format of `npm run bench`: rows of part, measure, value and target, as Markdown. */

export interface BenchRow {
  part: string;
  measure: string;
  value: string;
  target: string;
}

const COLUMNS = ['part', 'measure', 'value', 'target'] as const;

/** Prints `title`, then the rows as an aligned Markdown table. */
export function printBenchTable(title: string, rows: readonly BenchRow[]): void {
  const widths = COLUMNS.map((key) => Math.max(key.length, ...rows.map((row) => row[key].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line(COLUMNS));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(COLUMNS.map((key) => row[key])));
}
