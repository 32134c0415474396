// Runs the real Redocly CLI over every API of redocly.yaml (recommended-strict + house rules):
// zero errors and zero warnings. Then proves the house rules fire: a scratch copy of openapi/ with
// one deliberate violation per rule must be reported, rule by rule, in the file that breaks it.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { redoclyApis } from '../../scripts/lib/redocly-apis.ts';
import { ROOT, VERSIONS } from '../helpers/bundles.ts';

const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

interface Problem {
  ruleId: string;
  message: string;
  location: { pointer: string; source: { ref: string } }[];
}

/** `redocly lint --format=json` in `cwd`: one JSON report per API, printed one after another. */
async function lint(cwd: string): Promise<{ totals: object; problems: Problem[] }[]> {
  const result = await promisify(execFile)(process.execPath, [redocly, 'lint', '--format=json'], {
    cwd,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout: string; stderr: string }) => error);
  return JSON.parse(`[${result.stdout.replace(/\}\s*\{\s*"totals"/g, '},{"totals"')}]`);
}

it('redocly lint is clean for every API version', async () => {
  const reports = await lint(ROOT);
  // One report per API of redocly.yaml, one API per version the package ships.
  expect(reports).toHaveLength(redoclyApis().length);
  expect(reports).toHaveLength(VERSIONS.length);
  const problems = reports
    .flatMap((r) => r.problems)
    .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  expect(problems).toEqual([]);
  for (const { totals } of reports) expect(totals).toMatchObject({ errors: 0, warnings: 0 });
});

describe('the house rules', () => {
  let scratch = '';
  afterAll(() => (scratch ? rm(scratch, { recursive: true, force: true }) : undefined));

  /** file -> [text to replace, replacement]: one violation each, in a copy of the source. */
  const VIOLATIONS: Record<string, [string, string][]> = {
    // No operationId, summary or tag; a security requirement without scopes; no 2xx example.
    'openapi/paths/store/store.yaml': [
      ['  operationId: getStore\n', ''],
      ['  summary: Retrieve store information\n', ''],
      ['  tags: [Store]\n', ''],
      ["    - oauth2: ['store:read']\n", '    - oauth2: []\n'],
      ['          examples:\n            store:\n              $ref: ../../components/examples/StoreList.yaml\n', ''],
    ],
    // No version header; a request body without an example.
    'openapi/paths/pages/pages@{id}.yaml': [
      ['    - $ref: ../../components/parameters/ApiVersionHeader.yaml#/ApiVersion-2024-04-01\n', ''],
      [
        '        examples:\n          aboutUs:\n            $ref: ../../components/examples/PageUpdateAboutUs.yaml\n',
        '',
      ],
    ],
    // A version header that is not required.
    'openapi/components/parameters/ApiVersionHeader.yaml': [
      [
        'ApiVersion-unstable:\n  name: X-Service-API-Version\n  in: header\n  required: true\n',
        'ApiVersion-unstable:\n  name: X-Service-API-Version\n  in: header\n  required: false\n',
      ],
    ],
    // A property without a type.
    'openapi/components/schemas/Page.yaml': [["  slug:\n    type: [string, 'null']\n", '  slug:\n    minLength: 1\n']],
  };

  it('fire on a deliberate violation of each, in a scratch copy', { timeout: 60_000 }, async () => {
    // Inside the repo (git-ignored .tmp/): the house rules plugin resolves its imports from node_modules.
    await mkdir(join(ROOT, '.tmp'), { recursive: true });
    scratch = await mkdtemp(join(ROOT, '.tmp', 'house-rules-'));
    await cp(join(ROOT, 'openapi'), join(scratch, 'openapi'), { recursive: true });
    await cp(join(ROOT, 'redocly.yaml'), join(scratch, 'redocly.yaml'));
    for (const [file, edits] of Object.entries(VIOLATIONS)) {
      let text = await readFile(join(scratch, file), 'utf8');
      for (const [from, to] of edits) {
        expect(text, `${file} no longer contains ${JSON.stringify(from)}: update this test`).toContain(from);
        text = text.replace(from, to);
      }
      await writeFile(join(scratch, file), text);
    }
    const found = (await lint(scratch))
      .flatMap((r) => r.problems)
      .map((p) => `${p.ruleId} ${p.location[0]?.source.ref}`)
      .sort();
    expect(found).toEqual(
      [
        'operation-operationId openapi/paths/store/store.yaml',
        'operation-summary openapi/paths/store/store.yaml',
        'rule/operation-has-tag openapi/paths/store/store.yaml',
        'house/operation-scopes openapi/paths/store/store.yaml',
        'rule/response-has-example openapi/paths/store/store.yaml',
        'house/version-header openapi/paths/pages/pages@{id}.yaml',
        'rule/request-body-has-example openapi/paths/pages/pages@{id}.yaml',
        'house/version-header openapi/paths/tickets/tickets@{id}.unstable.yaml',
        'house/property-has-type openapi/components/schemas/Page.yaml',
      ].sort(),
    );
  });
});
