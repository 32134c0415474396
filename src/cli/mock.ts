/**
 * The `mock` command (`npm start` and the bin's `store-admin-contract mock` are this one command):
 * same flags and environment, same banner, same stop. Ctrl-C (SIGINT) or SIGTERM closes the server
 * and exits 0. Bad flags throw UsageError; a server that cannot listen (busy port, bad host) throws
 * CommandError, each one line (exit codes: ./exit-codes.ts).
 */
import { parseArgs } from 'node:util';
import { listExamples, loadBundles, VERSION_HEADER } from '../contract/index.ts';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SEED, startMock } from '../mock/index.ts';
import { CommandError, UsageError } from './exit-codes.ts';

export const MOCK_USAGE = `mock [--port N] [--host H] [--dynamic] [--seed S] [--bundles-dir DIR] [--quiet] [--examples]
  --port, --host   where to listen (default 127.0.0.1:4010; the PORT and HOST variables are read too, flags win)
  --dynamic        generated data instead of the examples (repeatable: same seed, same data; --seed S)
  --quiet          no per-request log line
  --examples       list the example names for "Prefer: example=<name>" and exit`;

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        dynamic: { type: 'boolean', default: false },
        seed: { type: 'string', default: DEFAULT_SEED },
        'bundles-dir': { type: 'string' },
        quiet: { type: 'boolean', default: false },
        examples: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function printExamples(bundlesDir: string | undefined): void {
  const listing = listExamples(loadBundles(bundlesDir));
  const width = Math.max(...listing.map((entry) => entry.path.length));
  console.log('Example names for "Prefer: example=<name>" (the first one is served by default):');
  for (const entry of listing) {
    const codes = Object.entries(entry.examples)
      .filter(([, names]) => names.length > 0)
      .map(([code, names]) => `${code}: ${names.join(', ')}`)
      .join('  ');
    console.log(
      `${entry.version.padEnd(11)} ${entry.method.toUpperCase().padEnd(6)} ${entry.path.padEnd(width)}  ${codes}`,
    );
  }
}

/** Runs the command; `bundlesDir` is where the bin's packaged bundles are (a flag overrides it). */
export async function runMockCommand(args: string[], defaults: { bundlesDir?: string } = {}): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`Usage: ${MOCK_USAGE}`);
    return;
  }
  const values = parse(args);
  const bundlesDir = values['bundles-dir'] ?? defaults.bundlesDir;
  if (values.examples) return printExamples(bundlesDir);

  const portText = values.port ?? process.env.PORT ?? String(DEFAULT_PORT);
  const portSource = values.port !== undefined ? '--port' : 'PORT';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`Invalid port "${portText}": set ${portSource} to a number from 0 to 65535.`);
  }
  const host = values.host ?? process.env.HOST ?? DEFAULT_HOST;
  const { dynamic, seed } = values;

  const mock = await startMock({
    host,
    port,
    dynamic,
    seed,
    ...(bundlesDir !== undefined && { bundlesDir }),
    ...(!values.quiet && { log: (line: string) => console.log(line) }),
  }).catch((error: NodeJS.ErrnoException) => {
    const set = (variable: string, flag: string) => `set ${variable} (or ${flag})`;
    if (error.code === 'EADDRINUSE')
      throw new CommandError(`Port ${port} on ${host} is already in use: ${set('PORT', '--port')} to another port.`);
    if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
      throw new CommandError(`Cannot listen on host "${host}": ${set('HOST', '--host')} to a local address.`);
    if (error.code === 'EACCES')
      throw new CommandError(`Not allowed to listen on port ${port}: ${set('PORT', '--port')} above 1023.`);
    throw new CommandError(`The mock could not start: ${error.message}`);
  });

  console.log(`Store admin API mock listening on ${mock.url}`);
  console.log(
    `  versions: ${mock.versions.join(', ')} (header ${VERSION_HEADER}; without it, each endpoint's newest version)`,
  );
  console.log(
    `  ${mock.operations} operations, ${dynamic ? `dynamic data (seed "${seed}")` : 'examples'}; any "Authorization: Bearer <token>" is accepted`,
  );
  console.log(`  API reference with try-it: ${mock.url}/docs/`);
  console.log('  press Ctrl-C to stop');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return; // tsx may relay the same Ctrl-C a second time
    stopping = true;
    await mock.close();
    console.log(`Mock stopped (${signal}).`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
