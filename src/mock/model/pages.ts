/** Pages 1..40 (`PUT /pages/{id}/`). */
import { assignDeclared } from '../writes/common.ts';
import { copyAtKey } from './example-records.ts';
import type { DeclaredCollection } from './types.ts';

export const pages: DeclaredCollection<'pages'> = {
  name: 'pages',
  key: 'id',
  singular: 'page',
  schema: { component: 'Page' },
  operations: {
    updatePage: {
      kind: 'write',
      param: 'id',
      run: ({ record, body, bodyProperties }) => {
        assignDeclared(record, body, bodyProperties);
        return { ok: true, body: record, changes: [['pages', record]] };
      },
    },
  },
  atExampleKey: (key, context) => [['pages', copyAtKey(pages, key, context)]],
  relations: [],
  seed: {
    count: 40,
    record: (i, { templates }) => ({
      ...templates.recordOf('updatePage', 'Page'),
      id: i,
      slug: `page-${i}`,
      title: `Page ${i}`,
      meta_title: `Page ${i} | Northwind Apparel`,
      template: `pages/page.custom${i}.html`,
      content: `<h1>Page ${i}</h1>`,
    }),
  },
};
