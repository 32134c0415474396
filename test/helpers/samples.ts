/**
 * The TypeScript samples of README.md and docs/*.md, read as a user reads them: each ```ts block
 * (not marked `nocheck`) with its Markdown file and line. test/docs-samples compiles them against
 * the sources, test/package against the packed tarball under TypeScript 5.9 and 7.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './bundles.ts';

export interface Sample {
  /** Markdown file, relative to the repo root. */
  file: string;
  /** Line of the first code line of the block in that file (1-based). */
  line: number;
  code: string;
}

/** The ```ts / ```typescript blocks of a Markdown text, except those marked `nocheck`. */
export function extractSamples(file: string, markdown: string): Sample[] {
  const samples: Sample[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\b(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '```', , info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] ?? '').trimStart().startsWith(fence)) {
      body.push((lines[j] ?? '').startsWith(indent) ? (lines[j] ?? '').slice(indent.length) : (lines[j] ?? ''));
      j++;
    }
    if (!/\bnocheck\b/.test(info)) samples.push({ file, line: i + 2, code: body.join('\n') });
    i = j;
  }
  return samples;
}

/** README.md and every docs/*.md, whoever wrote them. */
export function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  let pages: string[] = [];
  try {
    pages = readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => join(docs, name));
  } catch {
    // no docs/ folder
  }
  return [join(ROOT, 'README.md'), ...pages];
}

/** Every sample of README.md and docs/*.md. */
export function allSamples(): Sample[] {
  return markdownFiles().flatMap((path) => extractSamples(relative(ROOT, path), readFileSync(path, 'utf8')));
}
