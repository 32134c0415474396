/**
 * The `mock` command (`npm start` and the bin's `store-admin-contract mock` are this one command):
 * same flags and environment, same banner, same stop. By default it serves the data-backed,
 * stateful mock (docs/mock.md); `--static` serves Prism's examples as before. Ctrl-C (SIGINT) or SIGTERM closes the server
 * and exits 0. Bad flags and a `--data` file the contract refuses throw UsageError; a server that cannot listen (busy port, bad host) throws
 * CommandError, each one line (exit codes: ./exit-codes.ts).
 */
import { listExamples, loadBundles, VERSION_HEADER } from '../contract/index.ts';
import {
  DEFAULT_HOST,
  DEFAULT_LIMITS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_PORT,
  DEFAULT_SEED,
  exposesAdmin,
  FixtureError,
  type MockLimits,
  type MockServer,
  StateFileError,
  scenarioFromFlag,
  startMock,
} from '../mock/index.ts';
import { CommandError, UsageError } from './exit-codes.ts';
import { parseFlags } from './flags.ts';

export const MOCK_USAGE = `mock [--port N] [--host H] [--seed S] [--page-size N] [--shared-state] [--max-records N] [--max-state-bytes N]
     [--data FILE] [--state FILE] [--strict-query] [--admin-token T]
     [--fail F[:OP]] [--delay MS[:OP]] [--static [--dynamic]] [--bundles-dir DIR] [--quiet] [--examples]
  --port, --host   where to listen (default 127.0.0.1:4010; the PORT and HOST variables are read too, flags win);
                   a host beyond loopback exposes the admin endpoints (/__mock/): a warning at start
  --admin-token T  every admin request must carry T (header X-Mock-Admin-Token; in a browser, open
                   /__mock/?admin_token=T once, which sets a cookie)
  --seed S         seed of the generated store: same seed, same data (default "${DEFAULT_SEED}")
  --page-size N    records per list page (default ${DEFAULT_PAGE_SIZE})
  --shared-state   one state for every token (default: one state per bearer token)
  --max-records N  records a token's state may create per collection (default ${DEFAULT_LIMITS.maxRecords})
  --max-state-bytes N  JSON bytes of records a token's state may hold of its own (default ${DEFAULT_LIMITS.maxStateBytes})
  --data FILE      JSON fixtures (records per resource) replacing the seeded ones, checked against the contract
  --state FILE     keep every token's writes and snapshots in FILE (created if missing): a restart restores them
  --strict-query   refuse a query parameter the operation does not declare (400); by default it is ignored
                   and named in the X-Mock-Unknown-Query header and the request log
  --static         serve the contract's examples with Prism instead of the data-backed store
  --dynamic        with --static: data generated from the schemas by Prism (same --seed, same data)
  --fail F[:OP]    answer every request (or operation OP's) with a failure: 429, 503 (with Retry-After),
                   500, or drop (close the connection); repeatable. Per request: Prefer: fail=429
  --delay MS[:OP]  answer after MS milliseconds (all operations or OP); repeatable. Per request: Prefer: delay=MS
  --quiet          no per-request log line
  --examples       list the example names for "Prefer: example=<name>" and exit
  docs/mock.md documents the data, filters, pagination, writes and resets.`;

function parse(args: string[]) {
  return parseFlags(args, {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    dynamic: { type: 'boolean', default: false },
    static: { type: 'boolean', default: false },
    seed: { type: 'string', default: DEFAULT_SEED },
    'page-size': { type: 'string' },
    'shared-state': { type: 'boolean', default: false },
    'strict-query': { type: 'boolean', default: false },
    'max-records': { type: 'string' },
    'max-state-bytes': { type: 'string' },
    data: { type: 'string' },
    state: { type: 'string' },
    'admin-token': { type: 'string' },
    fail: { type: 'string', multiple: true },
    delay: { type: 'string', multiple: true },
    'bundles-dir': { type: 'string' },
    quiet: { type: 'boolean', default: false },
    examples: { type: 'boolean', default: false },
  });
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

type Values = ReturnType<typeof parse>;

/** The port: `--port`, else PORT, else the default; a usage error names which one is wrong. */
function portOf(values: Values): number {
  const portText = values.port ?? process.env.PORT ?? String(DEFAULT_PORT);
  const portSource = values.port !== undefined ? '--port' : 'PORT';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`Invalid port "${portText}": set ${portSource} to a number from 0 to 65535.`);
  }
  return port;
}

/** `--page-size`, 1 to 1000. */
function pageSizeOf(values: Values): number {
  const pageSizeText = values['page-size'] ?? String(DEFAULT_PAGE_SIZE);
  const pageSize = Number(pageSizeText);
  if (!/^\d+$/.test(pageSizeText) || pageSize < 1 || pageSize > 1000) {
    throw new UsageError(`Invalid --page-size "${pageSizeText}": a number from 1 to 1000.`);
  }
  return pageSize;
}

/** `--max-records` and `--max-state-bytes`, each a positive whole number when given. */
function limitsOf(values: Values): Partial<MockLimits> {
  const limits: Partial<MockLimits> = {};
  for (const [flag, name] of [
    ['max-records', 'maxRecords'],
    ['max-state-bytes', 'maxStateBytes'],
  ] as const) {
    const text = values[flag];
    if (text === undefined) continue;
    if (!/^\d{1,15}$/.test(text) || Number(text) < 1)
      throw new UsageError(`Invalid --${flag} "${text}": a positive whole number.`);
    limits[name] = Number(text);
  }
  return limits;
}

/** `--fail` and `--delay` as scenarios; they and the other data-backed flags are refused with `--static`. */
function scenariosOf(values: Values, isStatic: boolean, limits: Partial<MockLimits>) {
  const flags = [
    ...(values.fail ?? []).map((text) => ['fail', text] as const),
    ...(values.delay ?? []).map((text) => ['delay', text] as const),
  ];
  if (
    isStatic &&
    (values.data !== undefined ||
      values.state !== undefined ||
      values['shared-state'] ||
      values['strict-query'] ||
      values['page-size'] !== undefined ||
      Object.keys(limits).length > 0 ||
      flags.length > 0)
  ) {
    throw new UsageError(
      '--data, --state, --shared-state, --strict-query, --page-size, --max-records, --max-state-bytes, --fail and --delay apply to the data-backed mock, not to --static.',
    );
  }
  return flags.map(([flag, text]) => {
    try {
      return scenarioFromFlag(flag, text);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  });
}

/** A start failure as one line: a refused data/state file is a usage error, a listen failure says what to set. */
function startFailure(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error instanceof StateFileError && error.kind === 'unavailable') return new CommandError(error.message);
  if (error instanceof FixtureError || error instanceof StateFileError) return new UsageError(error.message);
  const set = (variable: string, flag: string) => `set ${variable} (or ${flag})`;
  if (error.code === 'EADDRINUSE')
    return new CommandError(`Port ${port} on ${host} is already in use: ${set('PORT', '--port')} to another port.`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new CommandError(`Cannot listen on host "${host}": ${set('HOST', '--host')} to a local address.`);
  if (error.code === 'EACCES')
    return new CommandError(`Not allowed to listen on port ${port}: ${set('PORT', '--port')} above 1023.`);
  return new CommandError(`The mock could not start: ${error.message}`);
}

/** Ctrl-C and SIGTERM close the server (once started) and exit 0; returns where to record the server. */
function stopOnSignals(): { started?: { close(): Promise<void> } } {
  // Signal handlers first: under tsx the parent process learns asynchronously that the child
  // handles SIGINT/SIGTERM; installing them before the (slow) start leaves it time to.
  const holder: { started?: { close(): Promise<void> } } = {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return; // tsx may relay the same Ctrl-C a second time
    stopping = true;
    await holder.started?.close();
    console.log(`Mock stopped (${signal}).`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return holder;
}

/** The start banner: where, which versions, what is served, and the inspector and reference URLs. */
function printBanner(mock: MockServer, values: Values, pageSize: number): void {
  const { dynamic, seed } = values;
  const isStatic = values.static || dynamic;
  console.log(`Store admin API mock listening on ${mock.url}`);
  console.log(
    `  versions: ${mock.versions.join(', ')} (header ${VERSION_HEADER}; without it, each endpoint's newest version)`,
  );
  const serving = !isStatic
    ? `a seeded store (seed "${seed}", ${pageSize} per page, ${values['shared-state'] ? 'one shared state' : 'one state per token'}${values['strict-query'] ? ', unknown query parameters refused' : ''}${values.data ? `, data from ${values.data}` : ''})`
    : dynamic
      ? `dynamic data (seed "${seed}")`
      : 'examples';
  console.log(`  ${mock.operations} operations, ${serving}; any "Authorization: Bearer <token>" is accepted`);
  if (mock.state) console.log(`  state file ${mock.state.path} (${mock.state.entries} entries loaded)`);
  if (!isStatic) console.log(`  inspector (requests, states, snapshots): ${mock.url}/__mock/`);
  if (!isStatic && exposesAdmin(values.host ?? process.env.HOST ?? DEFAULT_HOST))
    console.warn(
      `  warning: --host ${mock.host} exposes the admin endpoints (/__mock/: every token's requests and state, reset of every state) beyond loopback: ${values['admin-token'] === undefined ? 'whoever reaches this address can read and reset them (--admin-token T requires a secret' : 'they need --admin-token (sent in clear over http'}; docs/mock.md#admin-surface-exposure)`,
    );
  console.log(`  API reference with try-it: ${mock.url}/docs/`);
  console.log('  press Ctrl-C to stop');
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

  const port = portOf(values);
  const host = values.host ?? process.env.HOST ?? DEFAULT_HOST;
  if (values['admin-token'] === '') throw new UsageError('--admin-token must not be empty');
  const { dynamic, seed } = values;
  const isStatic = values.static || dynamic;
  const pageSize = pageSizeOf(values);
  const limits = limitsOf(values);
  const scenarios = scenariosOf(values, isStatic, limits);

  const signals = stopOnSignals();
  const mock = await startMock({
    host,
    port,
    seed,
    ...(isStatic
      ? { static: true, dynamic }
      : { pageSize, sharedState: values['shared-state'], strictQuery: values['strict-query'], scenarios, limits }),
    ...(values.data !== undefined && { dataFile: values.data }),
    ...(values['admin-token'] !== undefined && { adminToken: values['admin-token'] }),
    ...(values.state !== undefined && { statePath: values.state, warn: (line: string) => console.warn(line) }),
    ...(bundlesDir !== undefined && { bundlesDir }),
    ...(!values.quiet && { log: (line: string) => console.log(line) }),
  }).catch((error: NodeJS.ErrnoException) => {
    throw startFailure(error, host, port);
  });

  signals.started = mock;
  printBanner(mock, values, pageSize);
}
