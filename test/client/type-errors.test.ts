// What a consumer reads when a call is wrong: the TypeScript compiler API checks a consumer file and
// each error must name the mistake (an unknown path is "not assignable" to the known paths, never
// "Expected 2 arguments"). The `@ts-expect-error` lines of client.test-d.ts say there is an error;
// this says which.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

const DIR = join(ROOT, '.tmp', 'type-errors');

/** [call, the message its error must match]: one call per line of the consumer file. */
const CASES: [string, RegExp][] = [
  ["client.GET('/customers/');", /^Argument of type '"\/customers\/"' is not assignable to parameter of type /],
  ["client.GET('/customers/', { params: {} });", /^Argument of type '"\/customers\/"' is not assignable/],
  // PUT has one path only: a path parameter constrained to it used to turn this into "Expected 2 arguments".
  [
    "client.PUT('/page/{id}/');",
    /^Argument of type '"\/page\/{id}\/"' is not assignable to parameter of type '"\/pages\/{id}\/"'/,
  ],
  [
    "client.withVersion('unstable').GET('/store/');",
    /^Argument of type '"\/store\/"' is not assignable to parameter of type '"\/tickets\/{id}\/"'/,
  ],
  [
    "client.DELETE('/pages/{id}/');",
    /^Argument of type '"\/pages\/{id}\/"' is not assignable to parameter of type 'never'/,
  ],
  ["paginate(client, '/store/');", /^Argument of type '"\/store\/"' is not assignable to parameter of type /],
  ["paginate(client, '/subscription/');", /^Argument of type '"\/subscription\/"' is not assignable/],
  // A known path with a missing argument still says so.
  ["client.GET('/stockrecords/{id}/');", /^Expected 2 arguments, but got 1/],
  ["client.PUT('/pages/{id}/', { params: { path: { id: 1 } } });", /Property 'body' is missing/],
  [
    "client.GET('/stockrecords/{id}/', { params: { path: { id: 'one' } } });",
    /Type 'string' is not assignable to type 'number'/,
  ],
];

describe('type errors of a consumer', () => {
  it('name the unknown path, or the missing or wrong argument', async () => {
    await mkdir(DIR, { recursive: true });
    const file = join(DIR, 'consumer.ts');
    const header = [
      "import { createAdminClient, paginate } from '../../src/client/index.ts';",
      "const client = createAdminClient({ baseUrl: 'https://shop.example.com', token: 't' });",
    ];
    await writeFile(file, [...header, ...CASES.map(([call]) => call)].join('\n'));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const source = program.getSourceFile(file);
    const byLine = new Map<number, string[]>();
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      const line = source?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line ?? -1;
      byLine.set(line, [...(byLine.get(line) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')]);
    }
    const report = CASES.map(([call], index) => [call, byLine.get(header.length + index) ?? []] as const);
    for (const [[call, expected], [, messages]] of CASES.map((c, i) => [c, report[i] ?? ['', []]] as const)) {
      expect(messages, call).toHaveLength(1);
      expect(messages[0], call).toMatch(expected);
    }
    expect([...byLine.keys()].filter((line) => line < header.length)).toEqual([]);
  }, 120_000);
});
