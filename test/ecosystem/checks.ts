/**
 * How a generator's run is judged, here and in test/package/ (orval 8 on Node 22 and 24): what it
 * printed that is a problem, and the strict compiler options its output must pass.
 */
import type { ToolReport } from './generate.ts';

/** What a generator printed that is a warning or an error (its success banners are neither). */
export const problemsOf = (report: ToolReport | undefined): string[] => [
  ...(report?.thrown ? [report.thrown] : []),
  ...(report?.lines ?? [])
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
    .map((line) => line.replace(/\u001b\[[\d;]*m/g, ''))
    .filter((line) => /warn|error|fail|invalid|⚠|✖|❌/i.test(line)),
];

/** tsc's options for generated code as a bundler-based app compiles it: strict, no @types. */
export const GENERATED_CODE_OPTIONS = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
} as const;
