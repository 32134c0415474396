/**
 * Names that say what they hold (issue #29, item 4): no two files of one subsystem (a folder of src/)
 * share a name, so a name like `store.ts` points at one file. The entry convention is allowed: each
 * folder's `index.ts` (and a subsystem's `browser.ts` entry) may repeat in its subfolders.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const ENTRY_NAMES = new Set(['index.ts', 'browser.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Per subsystem of `root`, every file name two or more of its files share, with their paths. */
function sharedNames(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const byName = new Map<string, string[]>();
    for (const file of sources(join(root, entry.name))) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      if (ENTRY_NAMES.has(name)) continue;
      byName.set(name, [...(byName.get(name) ?? []), relative(root, file)]);
    }
    for (const [name, files] of byName)
      if (files.length > 1) found.push(`${entry.name}: ${name} (${files.join(', ')})`);
  }
  return found;
}

describe('file names', () => {
  it('no two files of one subsystem in src/ share a name (index.ts and browser.ts aside)', () => {
    expect(sharedNames(SRC)).toEqual([]);
  });

  it('the check finds two files of one name in one subsystem, and allows the same name in two subsystems', () => {
    const root = mkdtempSync(join(tmpdir(), 'file-names-'));
    try {
      for (const file of ['a/store.ts', 'a/tokens/store.ts', 'a/index.ts', 'a/tokens/index.ts', 'b/store.ts']) {
        mkdirSync(join(root, file, '..'), { recursive: true });
        writeFileSync(join(root, file), '');
      }
      expect(sharedNames(root)).toEqual(['a: store.ts (a/store.ts, a/tokens/store.ts)']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
