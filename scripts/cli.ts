#!/usr/bin/env node
/**
 * store-admin-contract: the command line of the published package (its `bin`, bundled to
 * dist/bin/cli.js by scripts/pack/build.ts; in this repo run it with `npx tsx scripts/cli.ts`).
 *
 *   mock [--port N] [--host H] [--dynamic] [--seed S] [--quiet]   serve every packaged API version (Prism;
 *                                                                  scripts/mock/command.ts, as npm start)
 *   types --version V --out FILE                                   write the path types of API version V
 *   --version                                                      print the package and API versions
 *   --help
 *
 * Everything is read from the package itself (generated/openapi/<version>.json), never from the
 * user's project. Prism and openapi-typescript are optional peer dependencies, loaded only by the
 * command that needs them: a missing one ends in an install hint, not a stack trace.
 * Exit status: 0 done, 1 the command failed, 2 bad usage.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION_HEADER } from '../generated/types/index.ts';
import { findPackageJson, formatVersion } from './lib/package-info.ts';
import { type ApiVersion, VERSIONS } from './lib/versions.ts';

const BIN = 'store-admin-contract';
const PACKAGE = '@store-admin/contract';

const USAGE = `Usage: ${BIN} <command> [options]

Commands:
  mock [--port N] [--host H] [--dynamic] [--seed S] [--quiet] [--examples]
      Serve every API version of the package with Prism on one port, as \`npm start\` does in the
      package's repo; the ${VERSION_HEADER} header picks the version (default: the newest that
      has the endpoint). --port defaults to $PORT, else 4010 (0 picks a free port); --host to $HOST,
      else 127.0.0.1; --dynamic generates data from the schemas instead of the examples (--seed
      makes it repeatable); --quiet drops the request log; --examples lists the example names.
      Stops on Ctrl-C / SIGTERM. Needs the optional peer @stoplight/prism-http.
  types --version V --out FILE
      Write the TypeScript path types of API version V, generated with openapi-typescript from the
      packaged bundle (the same output as ${PACKAGE}/types/V). Needs the optional peer openapi-typescript.

Options:
  --version   print the package version and the API versions it carries
  --help      print this help`;

/** Bad input: exits 2 with the message and a pointer to --help. */
class UsageError extends Error {}
/** A command that could not do its job for a reason the user can act on: exits 1 with the message. */
class CommandError extends Error {}

interface Manifest {
  version: string;
  peerDependencies?: Record<string, string>;
}

// The package root: scripts/ in the repo, dist/bin/ once packed (package-info walks up to it).
const manifestFile = findPackageJson();
const root = dirname(manifestFile);
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
const bundleFile = (version: ApiVersion) => join(root, 'generated', 'openapi', `${version}.json`);

/**
 * Imports the module behind a command; when one of its optional peers is not installed, throws an
 * install hint naming the exact versions this package was tested with (its peerDependencies).
 */
async function withPeers<T>(command: string, peers: string[], load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message = '' } = error as { code?: string; message?: string };
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
    if (code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw error;
    const specs = peers.map((peer) => `${peer}@${manifest.peerDependencies?.[peer] ?? 'latest'}`).join(' ');
    throw new CommandError(
      `"${command}" needs ${peers.join(' and ')}, an optional peer dependency of ${PACKAGE}, ` +
        `and "${missing}" is not installed.\nInstall it in your project:\n  npm install --save-dev ${specs}`,
    );
  }
}

function parseVersion(value: string | undefined): ApiVersion {
  if (!value) throw new UsageError(`types needs --version V, one of: ${VERSIONS.join(', ')}`);
  if (!(VERSIONS as readonly string[]).includes(value)) {
    throw new UsageError(`unknown API version "${value}"; this package carries ${VERSIONS.join(', ')}`);
  }
  return value as ApiVersion;
}

async function mock(args: string[]): Promise<void> {
  const mockPeers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => name.startsWith('@stoplight/'));
  const command = await withPeers('mock', mockPeers, () => import('./mock/command.ts'));
  await command.runMockCommand(args, { bundlesDir: join(root, 'generated', 'openapi') }).catch((error: unknown) => {
    if (error instanceof command.MockUsageError) throw new UsageError(error.message);
    if (error instanceof command.MockStartError) throw new CommandError(error.message);
    throw error;
  });
}

async function types(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { version: { type: 'string' }, out: { type: 'string' } } });
  const version = parseVersion(values.version);
  if (!values.out) throw new UsageError('types needs --out FILE');
  const out = resolve(values.out);
  const document = JSON.parse(await readFile(bundleFile(version), 'utf8')) as Record<string, unknown>;
  // The package's own generator (scripts/lib/types.ts), so the output equals `${PACKAGE}/types/<version>`.
  const { generateTypes } = await withPeers('types', ['openapi-typescript'], () => import('./lib/types.ts'));
  const generated = await generateTypes(version, document);
  // Its first line says where the build wrote it; here it says where the user's copy comes from.
  const body = generated.startsWith('//') ? generated.slice(generated.indexOf('\n') + 1) : generated;
  const header = `// Generated by \`${BIN} types --version ${version}\` from ${PACKAGE}@${manifest.version}. Do not edit.\n`;
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, header + body);
  console.log(`Wrote the types of API version ${version} to ${out}`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--version':
    case '-v':
      console.log(formatVersion());
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    case 'mock':
      return rest.includes('--help') ? console.log(USAGE) : mock(rest);
    case 'types':
      return rest.includes('--help') ? console.log(USAGE) : types(rest);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const { code } = error as { code?: string };
  if (error instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${BIN}: ${(error as Error).message}\nRun "${BIN} --help" for usage.`);
    process.exitCode = 2;
  } else if (error instanceof CommandError) {
    console.error(`${BIN}: ${error.message}`);
    process.exitCode = 1;
  } else {
    console.error(`${BIN}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  }
}
