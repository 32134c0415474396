// The architecture, enforced: src/ has one folder per subsystem, and a subsystem reaches another
// only through its public entry (`<subsystem>/index.ts`, or `browser.ts` for its browser-safe part),
// never a file inside it. scripts/ (build,
// docs, bench, pack) are consumers and follow the same rule. The table below is the allowed
// dependency graph; a new edge is a design decision, made here on purpose.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { tsFilesUnder } from '../helpers/files.ts';

/** subsystem -> the subsystems it may import (through their index.ts). */
const ALLOWED: Record<string, string[]> = {
  contract: [],
  validation: ['contract'],
  // The HTTP layer under every server (mock, --static, proxy, MSW): problems, CORS, target, body, listen.
  http: ['contract', 'validation'],
  client: ['contract'],
  codegen: ['contract'],
  // The node server loads the static mode (startMock({ static: true })); see the layering check below.
  mock: ['contract', 'validation', 'http', 'docs', 'static'],
  static: ['contract', 'validation', 'http'],
  conformance: ['contract', 'validation'],
  docs: ['contract'],
  msw: ['contract', 'http', 'mock'],
  fuzz: ['contract', 'validation', 'http'],
  // The proxy uses the mock only for its model (recording fixtures); its HTTP comes from src/http.
  proxy: ['contract', 'validation', 'http', 'mock', 'conformance', 'docs', 'client'],
  guard: ['contract'],
  drift: ['contract', 'conformance', 'proxy', 'guard', 'client', 'http'],
  cli: ['contract', 'mock', 'conformance', 'fuzz', 'codegen', 'docs', 'proxy', 'drift'],
};

const SRC = join(ROOT, 'src');
/** A subsystem's public entries: index.ts, and browser.ts for the part a browser bundle may import. */
const PUBLIC_ENTRIES = ['index.ts', 'browser.ts'];

/** Every relative import/export specifier of a file (static and dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] as string);
  return found.map((spec) => resolve(dirname(file), spec));
}

const subsystemOf = (path: string): string | undefined => {
  const rel = relative(SRC, path);
  return rel.startsWith('..') ? undefined : rel.split(sep)[0];
};

describe('src/ subsystems', () => {
  const subsystems = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());

  it('each subsystem is in the dependency table and has a public entry with a header comment', () => {
    expect(Object.keys(ALLOWED)).toEqual(expect.arrayContaining(subsystems));
    for (const name of subsystems) {
      const entry = readFileSync(join(SRC, name, 'index.ts'), 'utf8');
      expect(entry.startsWith('/**'), `src/${name}/index.ts starts with a comment saying what it is`).toBe(true);
    }
  });

  it('no file of src/ or scripts/ imports another subsystem except through its index.ts, nor an edge off the table', () => {
    const problems: string[] = [];
    const files = [...tsFilesUnder(SRC), ...tsFilesUnder(join(ROOT, 'scripts'))];
    for (const file of files) {
      const from = subsystemOf(file);
      for (const target of importsOf(file)) {
        const to = subsystemOf(target);
        if (to === undefined || to === from) continue;
        const where = relative(ROOT, file);
        if (!PUBLIC_ENTRIES.includes(relative(join(SRC, to), target)))
          problems.push(`${where} imports ${relative(ROOT, target)}`);
        if (from !== undefined && !ALLOWED[from]?.includes(to)) problems.push(`${where}: ${from} may not use ${to}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('static imports nothing of mock: no arrow runs up the layers (mock/server.ts loads static)', () => {
    const staticImports = tsFilesUnder(join(SRC, 'static')).flatMap((file) =>
      importsOf(file)
        .filter((target) => subsystemOf(target) === 'mock')
        .map((target) => `${relative(ROOT, file)} imports ${relative(ROOT, target)}`),
    );
    expect(staticImports).toEqual([]);
    expect(ALLOWED.static).not.toContain('mock');
  });

  it('the check catches a deep import (negative control)', () => {
    const fake = join(SRC, 'client', 'fake.ts');
    const to = subsystemOf(resolve(dirname(fake), '../mock/router.ts'));
    expect(to).toBe('mock');
    expect(relative(join(SRC, 'mock'), resolve(dirname(fake), '../mock/router.ts'))).not.toBe('index.ts');
  });
});
