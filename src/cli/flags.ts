/**
 * The one way a command reads its flags: node:util's parseArgs over the command's table, where an
 * unknown or malformed flag is a usage error (exit 2, ./exit-codes.ts), never a stack trace.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './exit-codes.ts';

export function parseFlags<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
