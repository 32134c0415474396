/**
 * The `fuzz` command (`store-admin-contract fuzz …`): property-based testing of a running server
 * against the contract (src/fuzz). Needs the optional peer fast-check, imported by ./index.ts only
 * when this command runs. Exit codes (./exit-codes.ts): 0 no failure, 1 at least one failure, 2
 * usage error, 3 the run itself failed (the server unreachable, a bundle unreadable) or could not
 * do its job: an operation's valid requests accepted fewer times than `--min-accepted`.
 */
import type { FuzzReport, runFuzz } from '../fuzz/index.ts';
import { CommandError, EXIT, type ExitCode, UsageError } from './exit-codes.ts';
import { paramsOf, parseServerFlags, type ServerFlags, serverOf } from './server-flags.ts';

type Values = ServerFlags & { seed?: string; cases?: string; 'min-accepted'?: string };

export const FUZZ_USAGE = `fuzz --base-url URL --token TOKEN [options]
  --base-url URL      the server's admin API root, e.g. http://127.0.0.1:4010 (or env CONFORMANCE_BASE_URL)
  --token TOKEN       a bearer token holding the operations' scopes (or env CONFORMANCE_TOKEN)
  --seed S            the seed of the run (any text); the same seed sends the same requests (default: random, printed)
  --cases N           requests to draw in all, spread over every operation and rule (default 1000)
  --allow-writes      also fuzz the write operations, with stateful checks (changes data!)
  --min-accepted N    the floor of valid requests each operation fuzzed must have accepted (2xx); below it
                      the operation is listed as not exercised and the run exits 3 (default 1; 0: no floor)
  --param NAME=VALUE  a path parameter value to try first (id=42, or getTicket.id=42); repeatable
  --version V         only this API version; repeatable
  --json              print the report as JSON
  --bundles-dir DIR   the version bundles to fuzz from (default: this package's generated/openapi)`;

/** The run's options from the command line, or a UsageError naming the bad argument. */
function optionsOf(values: Values): Parameters<typeof runFuzz>[0] {
  const { baseUrl, token } = serverOf(values);
  const cases = values.cases === undefined ? undefined : Number(values.cases);
  if (cases !== undefined && (!Number.isInteger(cases) || cases < 1 || cases > 1_000_000)) {
    throw new UsageError(`--cases "${values.cases}" is not a whole number from 1 to 1000000.`);
  }
  const minText = values['min-accepted'];
  if (minText !== undefined && !/^\d{1,7}$/.test(minText)) {
    throw new UsageError(`--min-accepted "${minText}" is not a whole number from 0 to 9999999.`);
  }
  const params = paramsOf(values.param);
  return {
    baseUrl,
    token,
    params,
    allowWrites: values['allow-writes'] ?? false,
    ...(values.seed !== undefined && { seed: values.seed }),
    ...(cases !== undefined && { cases }),
    ...(minText !== undefined && { minAccepted: Number(minText) }),
    ...(values.version && { versions: values.version }),
    ...(values['bundles-dir'] && { bundlesDir: values['bundles-dir'] }),
  };
}

function print(report: FuzzReport, writes: boolean): void {
  const seconds = report.ms / 1000;
  console.log(
    `Fuzzed ${report.baseUrl} with seed ${report.seed}: ${report.cases} cases, ${report.requests} requests` +
      ` in ${seconds.toFixed(1)} s (${Math.round(report.cases / seconds)} cases/s)${writes ? ', writes included' : ', read-only'}.`,
  );
  for (const failure of report.failures) {
    const what = failure.kind === 'valid' ? 'a valid request' : `${failure.field} breaks "${failure.kind}"`;
    console.log(`  FAIL ${failure.operation} (${failure.version}), ${what}: ${failure.check}: ${failure.message}`);
    console.log(`       shrunk in ${failure.shrinks} steps to: ${failure.curl}`);
  }
  if (report.refused.length > 0) {
    const listed = report.refused.map((r) => `${r.operation} (${r.version}) ${r.status} ×${r.count}`).join(', ');
    console.log(`  note: valid requests refused (the server's right: no such record, a state): ${listed}`);
  }
  for (const c of report.operations) {
    const mark = c.accepted < report.minAccepted ? 'NOT EXERCISED' : 'ok';
    console.log(
      `  ${mark} ${c.operation} (${c.version}): ${c.sent} valid sent, ${c.accepted} accepted, ${c.refused} refused`,
    );
  }
  if (report.skipped.length > 0) {
    const names = report.skipped.map((s) => `${s.operation} (${s.version})`).join(', ');
    console.log(`  skipped ${report.skipped.length} write operations (use --allow-writes): ${names}`);
  }
  console.log(
    report.failures.length === 0
      ? `No failure in ${report.properties.length} properties.`
      : `${report.failures.length} failure(s) in ${report.properties.length} properties; replay with --seed ${report.seed}.`,
  );
  if (report.underExercised.length > 0) console.error(thinLine(report));
}

/** The operations whose success path the run did not exercise, in one line for stderr. */
function thinLine(report: FuzzReport): string {
  const listed = report.underExercised
    .map((c) => `${c.operation} (${c.version}) ${c.accepted} of ${c.sent}`)
    .join(', ');
  return (
    `Not exercised: valid requests accepted fewer than --min-accepted ${report.minAccepted} times: ${listed}.` +
    ' Give the operations records they accept (--param NAME=VALUE, more --cases), or lower --min-accepted.'
  );
}

/** `load` imports the fuzzer (and fast-check): only once the arguments are known to be good. */
export async function runFuzzCommand(
  args: string[],
  load: () => Promise<{ runFuzz: typeof runFuzz }>,
): Promise<ExitCode> {
  const values: Values = parseServerFlags(args, ['seed', 'cases', 'min-accepted']);
  if (values.help) {
    console.log(`Usage: ${FUZZ_USAGE}`);
    return EXIT.ok;
  }
  const options = optionsOf(values);
  const fuzz = await load();
  let report: FuzzReport;
  try {
    report = await fuzz.runFuzz(options);
  } catch (error) {
    throw new CommandError(`Fuzz run failed: ${(error as Error).message}`);
  }
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else print(report, options.allowWrites === true);
  if (report.failures.length > 0) return EXIT.contractBreak;
  // No failure found, but an operation's success path was barely reached: the run did not do its job.
  if (report.underExercised.length > 0) {
    if (values.json) console.error(thinLine(report));
    return EXIT.internal;
  }
  return EXIT.ok;
}
