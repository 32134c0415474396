/**
 * docs/mock.md documents what the mock really does: every write operation has a row of the writes
 * table, every applied filter is in the applied table and every filter accepted but not applied in
 * the not-applied table, every row of the state table says what the code's row accepts, the default
 * page size and the seeded counts are the code's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, OPERATION_DECLS, SEEDED_COUNTS } from '../../src/mock/index.ts';
import { TRANSITIONS } from '../../src/mock/transitions.ts';
import { bundles } from './engine.ts';

const doc = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
const section = (title: string) => {
  const start = doc.indexOf(`\n## ${title}`);
  return doc.slice(start, doc.indexOf('\n## ', start + 1));
};
const operations = bundles.flatMap((b) => b.operations);
const pathOf = (operationId: string) =>
  operations.find((o) => o.operationId === operationId) as { method: string; path: string };

describe('docs/mock.md', () => {
  it('has one writes-table row per write operation', () => {
    const writes = section('Writes');
    for (const [operationId, decl] of Object.entries(OPERATION_DECLS)) {
      if (decl.kind !== 'write') continue;
      const { method, path } = pathOf(operationId);
      expect(writes).toContain(`| \`${method.toUpperCase()} ${path}\` |`);
    }
  });

  it('lists every applied filter and every filter accepted but not applied', () => {
    const filters = section('Filters');
    const [applied, ignored] = filters.split('**not applied**').slice(-2) as [string, string];
    const appliedTable = filters.slice(0, filters.lastIndexOf('| Operation |'));
    const ignoredTable = filters.slice(filters.lastIndexOf('| Operation |'));
    expect(applied && ignored).toBeTruthy();
    for (const decl of Object.values(OPERATION_DECLS)) {
      if (decl.kind !== 'list') continue;
      for (const filter of decl.filters) expect(appliedTable).toContain(`\`${filter.param}\``);
      for (const name of decl.notApplied) expect(ignoredTable).toContain(`\`${name}\``);
    }
  });

  it('has the state table of the code: each write with a state row, its Accepts cell word for word', () => {
    const table = section('State table');
    expect(TRANSITIONS.length).toBeGreaterThan(0);
    for (const { operationId, accepts } of TRANSITIONS) expect(table, operationId).toContain(`| ${accepts} |`);
  });

  it('states the default page size and the seeded id ranges of the code', () => {
    expect(section('Pagination')).toContain(`(default **${DEFAULT_PAGE_SIZE}**)`);
    const data = section('Data and ids');
    expect(data).toContain(`| 1-${SEEDED_COUNTS.subscriptions} |`);
    expect(data).toContain(`| 1-${SEEDED_COUNTS.fulfillmentOrders} |`);
    expect(data).toContain(`| 1-${SEEDED_COUNTS.tickets} |`);
    expect(data).toContain(`| 1-${SEEDED_COUNTS.transactions} |`);
  });
});
