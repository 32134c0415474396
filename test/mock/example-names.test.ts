/** docs/mock.md documents the example names the bundles really have. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listExamples, loadBundles } from '../../src/contract/index.ts';

const page = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
const start = page.indexOf('## Example names');
const section = page.slice(start, page.indexOf('\n## ', start + 1));

describe('docs/mock.md "## Example names"', () => {
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
