// Runs the real Redocly CLI over every API of redocly.yaml (recommended-strict + house rules):
// zero errors and zero warnings.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';

const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

it('redocly lint is clean for every API version', async () => {
  const result = await promisify(execFile)(process.execPath, [redocly, 'lint', '--format=json'], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout: string; stderr: string }) => error);
  // One JSON report per API, printed one after another.
  const reports: { totals: object; problems: never[] }[] = JSON.parse(
    `[${result.stdout.replace(/\}\s*\{\s*"totals"/g, '},{"totals"')}]`,
  );
  expect(reports).toHaveLength(3);
  const problems = reports
    .flatMap((r) => r.problems)
    .map(
      (p: { ruleId: string; message: string; location: { pointer: string }[] }) =>
        `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
  expect(problems).toEqual([]);
  for (const { totals } of reports) expect(totals).toMatchObject({ errors: 0, warnings: 0 });
});
