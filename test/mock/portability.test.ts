/**
 * The engine is transport-independent: from src/mock/engine.ts, no module it imports (statically,
 * following relative imports) imports a node: module other than as a type, so that an MSW adapter
 * can run `handle(Request)` in a browser. The node:http adapter imports node: modules at run time.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENGINE = fileURLToPath(new URL('../../src/mock/engine.ts', import.meta.url));

function graph(entry: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const visit = (file: string) => {
    if (out.has(file)) return;
    const source = readFileSync(file, 'utf8');
    const imports = [...source.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)]
      .filter(([, typeOnly]) => !typeOnly)
      .map(([, , specifier]) => specifier as string);
    out.set(file, imports);
    for (const specifier of imports) if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
  };
  visit(entry);
  return out;
}

describe('the mock engine', () => {
  it('imports no node: module, directly or through its imports', () => {
    const modules = graph(ENGINE);
    expect(modules.size).toBeGreaterThan(8);
    const nodeImports = [...modules].flatMap(([file, imports]) =>
      imports.filter((i) => i.startsWith('node:')).map((i) => `${file}: ${i}`),
    );
    expect(nodeImports).toEqual([]);
  });

  it('and the package entry ./mock imports node: modules only at run time', () => {
    const modules = graph(fileURLToPath(new URL('../../src/mock/index.ts', import.meta.url)));
    const nodeImports = [...modules].flatMap(([file, imports]) =>
      imports.filter((i) => i.startsWith('node:')).map((i) => `${file}: ${i}`),
    );
    expect(nodeImports).toEqual([]);
  });

  it('reaches Prism only through the dynamic import of static mode', () => {
    const modules = [...graph(fileURLToPath(new URL('../../src/mock/index.ts', import.meta.url)))];
    expect(modules.map(([file]) => file).filter((file) => /static\.ts$|prism\.ts$/.test(file))).toEqual([]);
    expect(modules.flatMap(([, imports]) => imports).filter((i) => i.includes('prism'))).toEqual([]);
  });
});
