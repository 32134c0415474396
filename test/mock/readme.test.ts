/** The README's mock section documents the example names the bundles really have. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listExamples, loadBundles } from '../../src/contract/index.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## Mock server'),
  readme.indexOf('\n## ', readme.indexOf('## Mock server') + 1),
);

describe('README "## Mock server"', () => {
  it('lists the example names of every operation and version, first (default) first', () => {
    const documented = [...section.matchAll(/^\| `(\w+) (\/\S*)` \| ([\w-]+) \| (.+) \|$/gm)].map(
      ([, method, path, version, names]) => `${version} ${method} ${path}: ${(names ?? '').replaceAll('`', '')}`,
    );
    const actual = listExamples(loadBundles()).map(
      (e) => `${e.version} ${e.method.toUpperCase()} ${e.path}: ${(e.examples['200'] ?? []).join(', ')}`,
    );
    expect(documented).toEqual(actual);
  });
});
