/**
 * The one way a command reads its flags: node:util's parseArgs over the command's table, where an
 * unknown or malformed flag is a usage error (exit 2, ./exit-codes.ts), never a stack trace.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './exit-codes.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
/** The values parseArgs reads for `O` (named, so that the declaration the package ships can say it). */
export type FlagValues<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O }>>['values'];

export function parseFlags<const O extends Options>(args: string[], options: O): FlagValues<O> {
  try {
    return parseArgs({ args, options }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
