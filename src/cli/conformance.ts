/**
 * The `conformance` command (`npm run conformance -- …`, `store-admin-contract conformance …`):
 * calls the operations of every API version on a running server and reports each response that
 * breaks the contract (operation, version, field, rule). Read-only operations only, unless
 * --allow-writes (writes send the contract's request examples: they change data; the token's state
 * on the mock is reset first, so a second run passes as the first). Exit codes
 * (./exit-codes.ts): 0 conformant, 1 at least one violation, 2 usage error, 3 the run failed (the
 * server unreachable, or calls without an answer and no violation).
 */
import { type ConformanceReport, runConformance } from '../conformance/index.ts';
import { CommandError, EXIT, type ExitCode } from './exit-codes.ts';
import { paramsOf, parseServerFlags, serverOf } from './server-flags.ts';

export const CONFORMANCE_USAGE = `conformance --base-url URL --token TOKEN [options]
  --base-url URL      the server's admin API root, e.g. http://127.0.0.1:4010 (or env CONFORMANCE_BASE_URL)
  --token TOKEN       a bearer token holding the operations' scopes (or env CONFORMANCE_TOKEN)
  --allow-writes      also call the write operations with the contract's request examples (changes data!);
                      first resets the token's state on the mock (POST /__mock/reset), so each run starts seeded
  --param NAME=VALUE  a path parameter value, for every operation (id=42) or one (getTicket.id=42); repeatable
  --version V         only this API version; repeatable
  --json              print the report as JSON
  --bundles-dir DIR   the version bundles to check against (default: this package's generated/openapi)`;

/** The report as text: one line per check, its violations under it, the skipped writes, a summary. */
function printReport(report: ConformanceReport, allowWrites: boolean): void {
  const responses = report.checks.filter((c) => c.kind === 'response');
  console.log(
    `Contract check of ${report.baseUrl}: ${responses.length} operation calls${allowWrites ? ' (writes included)' : ' (read-only)'}`,
  );
  if (report.stateReset) console.log(`  state: ${report.stateReset.message}`);
  const width = (pick: (c: (typeof report.checks)[number]) => string) =>
    Math.max(0, ...report.checks.map((c) => pick(c).length));
  const [pathWidth, operationWidth] = [width((c) => c.path), width((c) => c.operation)];
  for (const check of report.checks) {
    const mark = check.violations.length ? 'FAIL' : 'ok  ';
    const what = check.kind === 'auth' ? 'without token' : '';
    console.log(
      `  ${mark} ${check.method.padEnd(6)} ${check.path.padEnd(pathWidth)}  ${check.operation.padEnd(operationWidth)}  ${check.version.padEnd(10)} ${String(check.status ?? '---')} ${what}`.trimEnd(),
    );
    for (const v of check.violations) console.log(`         ${v.field}: ${v.rule} — ${v.message}`);
  }
  if (report.skipped.length > 0) {
    const names = report.skipped.map((s) => `${s.operation} (${s.version})`).join(', ');
    console.log(`  skipped ${report.skipped.length} write operations (use --allow-writes to call them): ${names}`);
  }
  const failing = new Set(report.violations.map((v) => `${v.operation} ${v.version}`)).size;
  console.log(
    report.violations.length === 0
      ? 'All responses conform to the contract.'
      : `${report.violations.length} violation(s) in ${failing} operation(s).`,
  );
}

export async function runConformanceCommand(args: string[]): Promise<ExitCode> {
  const values = parseServerFlags(args);
  if (values.help) {
    console.log(`Usage: ${CONFORMANCE_USAGE}`);
    return EXIT.ok;
  }
  const { baseUrl, token } = serverOf(values);
  const params = paramsOf(values.param);

  let report: ConformanceReport;
  try {
    report = await runConformance({
      baseUrl,
      token,
      allowWrites: values['allow-writes'] ?? false,
      params,
      ...(values.version && { versions: values.version }),
      ...(values['bundles-dir'] && { bundlesDir: values['bundles-dir'] }),
    });
  } catch (error) {
    throw new CommandError(`Conformance run failed: ${(error as Error).message}`);
  }

  if (values.json) console.log(JSON.stringify(report, null, 2));
  else printReport(report, values['allow-writes'] ?? false);
  // A call with no answer (rule `network`) says nothing about the contract: exit 3 unless a real break was found.
  const unanswered = report.violations.filter((v) => v.rule === 'network');
  if (unanswered.length === report.violations.length && unanswered[0]) {
    const { operation, version, message } = unanswered[0];
    throw new CommandError(
      `Conformance run failed: ${unanswered.length} call(s) got no answer from ${report.baseUrl}, the first ${operation} (${version}): ${message}`,
    );
  }
  return report.violations.length === 0 ? EXIT.ok : EXIT.contractBreak;
}
