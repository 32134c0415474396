/**
 * The `coverage` command: what a running mock's requests exercised (`GET /__mock/coverage`), as a
 * table of what was never exercised grouped by operation, or as JSON; with `--min P` a gate for CI.
 * Exit codes (./exit-codes.ts): 0 done (and at least P%), 1 under `--min`, 2 usage error, 3 the
 * mock could not be asked.
 */
import { type CoverageReport, formatCoverage } from '../mock/index.ts';
import { CommandError, EXIT, type ExitCode, UsageError } from './exit-codes.ts';
import { parseFlags } from './flags.ts';

export const COVERAGE_USAGE = `coverage --base-url URL [--token TOKEN] [--json] [--min P]
  --base-url URL   the running mock (npm start, store-admin-contract mock), e.g. http://127.0.0.1:4010
  --token TOKEN    only what this token's state exercised (default: the whole process)
  --json           print the report as JSON (GET /__mock/coverage)
  --min P          exit 1 when under P percent of the items were exercised (0 to 100)
  Exit codes: 0 done (at least --min), 1 under --min, 2 usage error, 3 the mock could not be asked.`;

interface Flags {
  baseUrl: string;
  token?: string;
  json: boolean;
  min?: number;
}

function flagsOf(args: string[]): Flags | 'help' {
  const values = parseFlags(args, {
    'base-url': { type: 'string' },
    token: { type: 'string' },
    json: { type: 'boolean' },
    min: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const baseUrl = values['base-url'];
  if (baseUrl === undefined) throw new UsageError('coverage needs --base-url URL (the running mock)');
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url "${baseUrl}" is not a URL`);
  const min = values.min === undefined ? undefined : Number(values.min);
  if (min !== undefined && (values.min?.trim() === '' || !Number.isFinite(min) || min < 0 || min > 100))
    throw new UsageError(`--min "${values.min}": a percentage from 0 to 100`);
  if (values.token === '') throw new UsageError('--token must not be empty');
  return {
    baseUrl,
    json: values.json === true,
    ...(values.token && { token: values.token }),
    ...(min !== undefined && { min }),
  };
}

/** Asks the mock for its report; an unreachable mock or a refusal is the command's failure (exit 3). */
async function fetchReport(baseUrl: string, token: string | undefined): Promise<CoverageReport> {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/__mock/coverage`);
  if (token !== undefined) url.searchParams.set('token', token);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new CommandError(
      `cannot reach the mock at ${url.origin}: ${(error as Error).cause ?? (error as Error).message}`,
    );
  }
  const text = await response.text();
  if (!response.ok) throw new CommandError(`GET ${url.pathname} answered ${response.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as CoverageReport;
  } catch {
    throw new CommandError(`GET ${url.pathname} did not answer JSON: is ${baseUrl} the store admin mock?`);
  }
}

export async function runCoverageCommand(args: string[]): Promise<ExitCode> {
  const flags = flagsOf(args);
  if (flags === 'help') {
    console.log(`Usage: ${COVERAGE_USAGE}`);
    return EXIT.ok;
  }
  const report = await fetchReport(flags.baseUrl, flags.token);
  console.log(flags.json ? JSON.stringify(report, null, 2) : formatCoverage(report));
  if (flags.min === undefined || report.percent >= flags.min) return EXIT.ok;
  if (!flags.json) console.error(`Coverage ${report.percent.toFixed(2)}% is under --min ${flags.min}%.`);
  return EXIT.contractBreak;
}
