/**
 * `npm start`: the Prism mock of every API version on one port (default http://127.0.0.1:4010).
 *
 *   npm start                          examples, on 127.0.0.1:4010
 *   PORT=8080 HOST=0.0.0.0 npm start   another port / interface (also --port, --host)
 *   npm start -- --dynamic             generated data (repeatable; --seed <s> changes it)
 *   npm start -- --examples            list the example names for `Prefer: example=<name>` and exit
 *   npm start -- --quiet               no per-request log line
 *
 * A thin CLI over startMock() (scripts/mock/index.ts). Ctrl-C (SIGINT) or SIGTERM closes the
 * server and exits 0. A busy port prints one line and exits 1.
 */
import { parseArgs } from 'node:util';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SEED,
  listExamples,
  loadBundles,
  startMock,
  VERSION_HEADER,
} from './mock/index.ts';

const USAGE = `Usage: npm start -- [--port N] [--host H] [--dynamic] [--seed S] [--bundles-dir DIR] [--quiet] [--examples]
  PORT and HOST environment variables are read too (flags win).`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let values: {
  port?: string;
  host?: string;
  dynamic?: boolean;
  seed?: string;
  'bundles-dir'?: string;
  quiet?: boolean;
  examples?: boolean;
  help?: boolean;
};
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dynamic: { type: 'boolean' },
      seed: { type: 'string' },
      'bundles-dir': { type: 'string' },
      quiet: { type: 'boolean' },
      examples: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

if (values.examples) {
  const listing = listExamples(loadBundles(values['bundles-dir']));
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
  process.exit(0);
}

const portText = values.port ?? process.env.PORT ?? String(DEFAULT_PORT);
const portSource = values.port !== undefined ? '--port' : 'PORT';
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535)
  fail(`Invalid port "${portText}": set ${portSource} to a number from 0 to 65535.`);
const host = values.host ?? process.env.HOST ?? DEFAULT_HOST;
const dynamic = values.dynamic ?? false;
const seed = values.seed ?? DEFAULT_SEED;

let mock: Awaited<ReturnType<typeof startMock>>;
try {
  mock = await startMock({
    host,
    port,
    dynamic,
    seed,
    ...(values['bundles-dir'] !== undefined && { bundlesDir: values['bundles-dir'] }),
    ...(!values.quiet && { log: (line: string) => console.log(line) }),
  });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    fail(`Port ${port} on ${host} is already in use: set PORT to another port (e.g. PORT=${port + 1} npm start).`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    fail(`Cannot listen on host "${host}": set HOST to a local address (e.g. HOST=127.0.0.1).`);
  if (code === 'EACCES') fail(`Not allowed to listen on port ${port}: set PORT to a port above 1023.`);
  fail(`The mock could not start: ${(error as Error).message}`);
}

console.log(`Store admin API mock listening on ${mock.url}`);
console.log(
  `  versions: ${mock.versions.join(', ')} (header ${VERSION_HEADER}; without it, each endpoint's newest version)`,
);
console.log(
  `  ${mock.operations} operations, ${dynamic ? `dynamic data (seed "${seed}")` : 'examples'}; any "Authorization: Bearer <token>" is accepted`,
);
console.log('  press Ctrl-C to stop');

let stopping = false;
async function stop(signal: string) {
  if (stopping) return; // tsx may relay the same Ctrl-C a second time
  stopping = true;
  await mock.close();
  console.log(`Mock stopped (${signal}).`);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
