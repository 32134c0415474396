/** What a generator printed that is a warning or an error (its success banners are neither). */
import type { ToolReport } from './generate.ts';

export const problemsOf = (report: ToolReport | undefined): string[] => [
  ...(report?.thrown ? [report.thrown] : []),
  ...(report?.lines ?? [])
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
    .map((line) => line.replace(/\u001b\[[\d;]*m/g, ''))
    .filter((line) => /warn|error|fail|invalid|⚠|✖|❌/i.test(line)),
];
