/**
 * The one exit-code table of every command of this package: the bin (`store-admin-contract`),
 * `npm start`, `npm run conformance|diff|build|docs`. A script that fails for a reason the user can
 * act on names it on stderr in one line.
 *
 * | code | meaning                                                                      |
 * |------|------------------------------------------------------------------------------|
 * | 0    | done: the command did its job, no contract break found                       |
 * | 1    | contract break: a breaking change (diff) or a violation (conformance)        |
 * | 2    | usage error: an unknown command or flag, a bad or missing argument           |
 * | 3    | internal error: the command could not do its job (busy port, unreadable file, a bug) |
 */
export const EXIT = {
  ok: 0,
  contractBreak: 1,
  usage: 2,
  internal: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Bad input (unknown command or flag, bad value): exit 2, the message and a pointer to --help. */
export class UsageError extends Error {}

/** The command could not do its job for a reason the user can act on: exit 3, the message alone. */
export class CommandError extends Error {}
