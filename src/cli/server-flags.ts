/**
 * The flags shared by the commands that call a running server (`conformance`, `fuzz`): where it is,
 * the token, writes allowed, path parameters, versions, output and bundles. One table, one parser,
 * one reading of `--base-url`/`--token` (or their CONFORMANCE_* env) and of `--param NAME=VALUE`.
 */
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './exit-codes.ts';
import { parseFlags } from './flags.ts';

const SERVER_OPTIONS = {
  'base-url': { type: 'string' },
  token: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  param: { type: 'string', multiple: true },
  version: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  'bundles-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export interface ServerFlags {
  'base-url'?: string;
  token?: string;
  'allow-writes'?: boolean;
  param?: string[];
  version?: string[];
  json?: boolean;
  'bundles-dir'?: string;
  help?: boolean;
}

/** The shared flags plus a command's own (string-valued) ones; an unknown or malformed flag is a usage error. */
export function parseServerFlags<K extends string>(
  args: string[],
  own: readonly K[] = [],
): ServerFlags & Partial<Record<K, string>> {
  const options = { ...SERVER_OPTIONS, ...Object.fromEntries(own.map((name) => [name, { type: 'string' }])) };
  return parseFlags(args, options as NonNullable<ParseArgsConfig['options']>) as ServerFlags &
    Partial<Record<K, string>>;
}

/** The server to call: `--base-url` and `--token` (or CONFORMANCE_BASE_URL / CONFORMANCE_TOKEN), checked. */
export function serverOf(values: ServerFlags): { baseUrl: string; token: string } {
  const baseUrl = values['base-url'] ?? process.env.CONFORMANCE_BASE_URL;
  const token = values.token ?? process.env.CONFORMANCE_TOKEN;
  if (!baseUrl) throw new UsageError('Missing --base-url.');
  if (!token) throw new UsageError('Missing --token.');
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url "${baseUrl}" is not a URL.`);
  return { baseUrl, token };
}

/** `--param NAME=VALUE` pairs as a map; a pair without a name is a usage error. */
export function paramsOf(pairs: readonly string[] = []): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals < 1) throw new UsageError(`--param "${pair}" is not NAME=VALUE.`);
    params[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return params;
}
