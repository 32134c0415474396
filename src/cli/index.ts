/**
 * The command line of the package: `store-admin-contract <command>` (the bin, ./bin.ts), and in
 * this repo `npm start` (= `mock`) and `npm run conformance` (= `conformance`), all through
 * {@link runCli}, so a flag means the same and fails with the same exit code everywhere
 * (./exit-codes.ts). Commands load their subsystem on demand: the optional peers a command needs
 * (Prism for `mock --static`, openapi-typescript for `types`, fast-check for `fuzz`) are imported only when it runs, and a missing one ends in an
 * install hint, not a stack trace.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type ApiVersion, packageRoot, VERSION_HEADER, VERSIONS } from '../contract/index.ts';
import { CommandError, EXIT, type ExitCode, UsageError } from './exit-codes.ts';
import { parseFlags } from './flags.ts';

export { CommandError, EXIT, type ExitCode, UsageError } from './exit-codes.ts';

export const BIN = 'store-admin-contract';
const PACKAGE = '@store-admin/contract';

const USAGE = `Usage: ${BIN} <command> [options]

Commands:
  mock [--port N] [--host H] [--seed S] [--quiet] [--examples] ...
      Serve every API version of the package on one port, as \`npm start\` does in the package's
      repo; the ${VERSION_HEADER} header picks the version (default: the newest that has the
      endpoint). \`${BIN} mock --help\` lists every flag.
  conformance --base-url URL --token TOKEN [...]
      Call every operation on a running server and report each response that breaks the contract.
  fuzz --base-url URL --token TOKEN [--seed S] [--cases N] [--allow-writes] [--json] [...]
      Property-based testing of a running server: valid and invalid requests drawn from the
      contract, failures shrunk to a curl command. Needs the optional peer fast-check.
  proxy --upstream URL [--port N] [--record FILE] [--strict] ...
      Forward the API's traffic to a real server, check every exchange against the contract, report
      the violations, and record the 2xx answers as data the mock loads (--data). \`${BIN} proxy --help\`.
  drift --recording FILE [--base-url URL --token TOKEN] [--json] [--propose [--write]]
      Report what a recording shows that the contract does not say; with --base-url, replay its reads
      against a server and diff the answers' shapes; with --propose (in a checkout of the contract),
      the findings as edits of openapi/ judged by the breaking-change guard (--write applies them).
  coverage --base-url URL [--token TOKEN] [--json] [--min P]
      What a running mock's requests exercised (operations, versions, statuses, filters, cursors,
      state rows, scenarios): a table of what they never did, grouped by operation; exit 1 under --min.
  types --version V --out FILE
      Write the TypeScript path types of API version V, generated with openapi-typescript from the
      packaged bundle (the same output as ${PACKAGE}/types/V). Needs the optional peer openapi-typescript.

Options:
  --version   print the package version and the API versions it carries
  --help      print this help

Exit codes: 0 done, 1 contract break found (coverage: under --min), 2 usage error, 3 the command could not do its job.`;

interface Manifest {
  version: string;
  peerDependencies?: Record<string, string>;
}

const manifest = (): Manifest => JSON.parse(readFileSyncText(join(packageRoot(), 'package.json'))) as Manifest;
function readFileSyncText(file: string): string {
  return readFileSync(file, 'utf8');
}

/**
 * Imports the module behind a command; when one of its optional peers is not installed, throws an
 * install hint naming the range this package was tested with (its peerDependencies), quoted for the
 * shell (`^`, `||`).
 */
async function withPeers<T>(command: string, peers: string[], load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message = '' } = error as { code?: string; message?: string };
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
    if (code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw error;
    const peerVersions = manifest().peerDependencies ?? {};
    const specs = peers.map((peer) => `"${peer}@${peerVersions[peer] ?? 'latest'}"`).join(' ');
    throw new CommandError(
      `"${command}" needs ${peers.join(' and ')}, an optional peer dependency of ${PACKAGE}, ` +
        `and "${missing}" is not installed.\nInstall it in your project:\n  npm install --save-dev ${specs}`,
    );
  }
}

const peersOf = (prefixes: string[]) =>
  Object.keys(manifest().peerDependencies ?? {}).filter((name) => prefixes.some((p) => name.startsWith(p)));

function parseVersion(value: string | undefined): ApiVersion {
  if (!value) throw new UsageError(`types needs --version V, one of: ${VERSIONS.join(', ')}`);
  if (!(VERSIONS as readonly string[]).includes(value)) {
    throw new UsageError(`unknown API version "${value}"; this package carries ${VERSIONS.join(', ')}`);
  }
  return value as ApiVersion;
}

async function mock(args: string[]): Promise<ExitCode> {
  // Only the example mode (--static, --dynamic) runs Prism, an optional peer.
  if (args.includes('--static') || args.includes('--dynamic')) {
    await withPeers('mock --static', peersOf(['@stoplight/']), () => import('@stoplight/prism-http'));
  }
  const command = await import('./mock.ts');
  await command.runMockCommand(args);
  return EXIT.ok;
}

async function conformance(args: string[]): Promise<ExitCode> {
  const command = await import('./conformance.ts');
  return command.runConformanceCommand(args);
}

async function fuzz(args: string[]): Promise<ExitCode> {
  const command = await import('./fuzz.ts');
  return command.runFuzzCommand(args, () => withPeers('fuzz', ['fast-check'], () => import('../fuzz/index.ts')));
}

async function proxy(args: string[]): Promise<ExitCode> {
  const command = await import('./proxy.ts');
  await command.runProxyCommand(args); // the server keeps the process alive until a signal
  return EXIT.ok;
}

async function drift(args: string[]): Promise<ExitCode> {
  const command = await import('./drift.ts');
  return command.runDriftCommand(args);
}

async function coverage(args: string[]): Promise<ExitCode> {
  const command = await import('./coverage.ts');
  return command.runCoverageCommand(args);
}

async function types(args: string[]): Promise<ExitCode> {
  const values = parseFlags(args, { version: { type: 'string' }, out: { type: 'string' } });
  const version = parseVersion(values.version);
  if (!values.out) throw new UsageError('types needs --out FILE');
  const out = resolve(values.out);
  const bundle = join(packageRoot(), 'generated', 'openapi', `${version}.json`);
  const document = JSON.parse(await readFile(bundle, 'utf8')) as Record<string, unknown>;
  // The package's own generator, so the output equals `${PACKAGE}/types/<version>`.
  const { generateTypes } = await withPeers('types', ['openapi-typescript'], () => import('../codegen/index.ts'));
  const generated = await generateTypes(version, document);
  // Its first line says where the build wrote it; here it says where the user's copy comes from.
  const body = generated.startsWith('//') ? generated.slice(generated.indexOf('\n') + 1) : generated;
  const header = `// Generated by \`${BIN} types --version ${version}\` from ${PACKAGE}@${manifest().version}. Do not edit.\n`;
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, header + body);
  console.log(`Wrote the types of API version ${version} to ${out}`);
  return EXIT.ok;
}

async function dispatch(argv: string[]): Promise<ExitCode> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--version':
    case '-v': {
      const { formatVersion } = await import('../contract/index.ts');
      console.log(formatVersion());
      return EXIT.ok;
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return EXIT.ok;
    case 'mock':
      return mock(rest);
    case 'conformance':
      return conformance(rest);
    case 'fuzz':
      return fuzz(rest);
    case 'proxy':
      return proxy(rest);
    case 'drift':
      return drift(rest);
    case 'coverage':
      return coverage(rest);
    case 'types':
      if (rest.includes('--help')) {
        console.log(USAGE);
        return EXIT.ok;
      }
      return types(rest);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * Runs one command line and returns its exit code; every failure is printed as one line on stderr
 * (a stack only for a bug). `name` is how the user called it (the bin, or `npm start --`).
 */
export async function runCli(argv: string[], name: string = BIN): Promise<ExitCode> {
  try {
    return await dispatch(argv);
  } catch (error) {
    // Flags are read by ./flags.ts: a bad one is a UsageError too.
    if (error instanceof UsageError) {
      console.error(`${name}: ${(error as Error).message}\nRun "${name} --help" for usage.`);
      return EXIT.usage;
    }
    if (error instanceof CommandError) {
      console.error(`${name}: ${error.message}`);
      return EXIT.internal;
    }
    console.error(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  }
}
