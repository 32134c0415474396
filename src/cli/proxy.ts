/**
 * The `proxy` command: the validating proxy of src/proxy in front of a real API, until Ctrl-C
 * (SIGINT) or SIGTERM, when it prints its summary, writes the recording and exits 0. Bad flags are
 * usage errors (2); a port that cannot be used or a recording that cannot be written, 3.
 */
import {
  DEFAULT_PROXY_PORT,
  DEFAULT_RECORD_LIMIT,
  DEFAULT_RECORD_MAX_BYTES,
  DEFAULT_REDACT,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  formatSummary,
  HELD_BYTES,
  REPORT_PATH,
  startProxy,
  VIOLATIONS_HEADER,
} from '../proxy/index.ts';
import { CommandError, EXIT, UsageError } from './exit-codes.ts';
import { parseFlags } from './flags.ts';

export const PROXY_USAGE = `proxy --upstream URL [--port N] [--host H] [--record FILE [--force]] [--record-limit N]
      [--record-max-bytes N] [--redact FIELDS] [--strict] [--upstream-timeout MS] [--held-bytes N] [--quiet]
  --upstream URL        the real API's root, e.g. https://staging.example.com/api/admin
  --port, --host        where to listen (default 127.0.0.1:${DEFAULT_PROXY_PORT}; --port 0 picks a free one)
  --record FILE         write every 2xx JSON exchange to FILE, loadable by "mock --data FILE" and read by "drift"
  --force               replace the recording FILE already holds (default: refuse to start, exit 3)
  --record-limit N      exchanges kept, and records per collection (default ${DEFAULT_RECORD_LIMIT})
  --record-max-bytes N  bytes of answers the recording holds, in memory and in FILE (default ${DEFAULT_RECORD_MAX_BYTES});
                        past it exchanges are dropped (counted in $recording.dropped)
  --redact FIELDS       comma-separated personal fields faked in the recording (default ${DEFAULT_REDACT.join(',')};
                        "none" for none); credentials and payment data (card_token, auth_code, ?access_token=…)
                        are faked always
  --strict              refuse a request that breaks the contract with the mock's problem (default: forward and report)
  --upstream-timeout MS time the upstream has to answer (default ${DEFAULT_UPSTREAM_TIMEOUT_MS}), then 504
  --held-bytes N        answers up to N bytes are checked before they are sent, the total in the header
                        (default ${HELD_BYTES}); longer ones stream, the total in a trailer
  --quiet               no log line per exchange (violations and recording write failures are still printed)
  Each answer carries ${VIOLATIONS_HEADER}; GET ${REPORT_PATH} is the report so far.
  docs/proxy.md documents the loop: record, serve as fixtures, report drift.`;

function positiveInteger(flag: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min)
    throw new UsageError(`${flag} must be an integer of at least ${min}, got "${text}"`);
  return value;
}

function parse(args: string[]) {
  return parseFlags(args, {
    upstream: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    record: { type: 'string' },
    'record-limit': { type: 'string' },
    'record-max-bytes': { type: 'string' },
    force: { type: 'boolean' },
    redact: { type: 'string' },
    strict: { type: 'boolean' },
    'upstream-timeout': { type: 'string' },
    'held-bytes': { type: 'string' },
    quiet: { type: 'boolean' },
    'bundles-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
}

export async function runProxyCommand(args: string[]): Promise<'help' | 'running'> {
  const values = parse(args);
  if (values.help) {
    console.log(`Usage: ${PROXY_USAGE}`);
    return 'help';
  }
  if (!values.upstream) throw new UsageError('proxy needs --upstream URL (the real API root)');
  const port = positiveInteger('--port', values.port, DEFAULT_PROXY_PORT, 0);
  const redact =
    values.redact === undefined
      ? undefined
      : values.redact === 'none'
        ? []
        : values.redact
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean);
  const quiet = values.quiet ?? false;
  const options = {
    upstream: values.upstream,
    port,
    ...(values.host !== undefined && { host: values.host }),
    ...(values.record !== undefined && { record: values.record }),
    recordLimit: positiveInteger('--record-limit', values['record-limit'], DEFAULT_RECORD_LIMIT),
    recordMaxBytes: positiveInteger('--record-max-bytes', values['record-max-bytes'], DEFAULT_RECORD_MAX_BYTES),
    overwrite: values.force ?? false,
    ...(redact && { redact }),
    strict: values.strict ?? false,
    upstreamTimeoutMs: positiveInteger('--upstream-timeout', values['upstream-timeout'], DEFAULT_UPSTREAM_TIMEOUT_MS),
    heldBytes: positiveInteger('--held-bytes', values['held-bytes'], HELD_BYTES, 0),
    ...(values['bundles-dir'] !== undefined && { bundlesDir: values['bundles-dir'] }),
    // --quiet: the violation lines only (no exchange line is even written).
    logExchanges: !quiet,
    log: (line: string) => console.log(line),
    warn: (line: string) => console.error(line),
  };

  let started: Awaited<ReturnType<typeof startProxy>> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping || !started) return;
    stopping = true;
    try {
      console.log(formatSummary(await started.close()));
    } catch (error) {
      // The last write of the recording failed: said plainly, exit 3 (never a stack trace).
      console.error(`Proxy stopped (${signal}), but the recording was not written: ${(error as Error).message}.`);
      process.exit(EXIT.internal);
    }
    console.log(`Proxy stopped (${signal}).`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  started = await startProxy(options).catch((error: NodeJS.ErrnoException) => {
    if (error instanceof TypeError) throw new UsageError(error.message);
    if (error.code === 'EADDRINUSE')
      throw new CommandError(`Port ${port} is already in use: pick another with --port.`);
    if (error.code === 'EEXIST')
      throw new CommandError(`${error.message}: pass --force to replace it, or record to another file.`);
    if (error.path !== undefined) throw new CommandError(`Cannot write the recording ${values.record}: ${error.code}.`);
    throw new CommandError(`The proxy could not start: ${error.message}`);
  });
  console.log(`Store admin API proxy listening on ${started.url}, forwarding to ${started.upstream}`);
  console.log(
    `  every exchange checked against the contract${options.strict ? ' (--strict: invalid requests refused)' : ''}; report: ${started.url}${REPORT_PATH}`,
  );
  if (values.record)
    console.log(
      `  recording 2xx JSON exchanges to ${values.record} (redacted: ${[...(redact ?? DEFAULT_REDACT), 'credentials and payment data'].join(', ')})`,
    );
  console.log(`  API reference: ${started.url}/docs/`);
  console.log('  press Ctrl-C to stop (prints the summary)');
  return 'running';
}
