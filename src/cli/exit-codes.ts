/**
 * The one exit-code table of every command of this package (the `npm run` scripts and the
 * `store-admin-contract` bin), so that CI can tell "the contract is broken" from "the tool broke":
 *
 * | code | name            | meaning                                                                  |
 * |------|-----------------|--------------------------------------------------------------------------|
 * | 0    | `ok`            | done, nothing wrong found                                                |
 * | 1    | `contractBreak` | the contract is broken: a breaking change found, a conformance violation |
 * | 2    | `usage`         | the command was called wrongly: a bad flag or argument, an unknown ref   |
 * | 3    | `internal`      | an unexpected exception, or an input file that cannot be used (corrupt,  |
 * |      |                 | too large, a `$ref` leaving the contract): never reported as a break     |
 *
 * `1` is reserved for findings about the contract, and for the one gate on a suite, `coverage --min`
 * (the tests exercised less of the contract than asked): a command that fails for any other reason
 * must not exit 1, or CI would read a crash as a breaking change.
 */
export const EXIT = { ok: 0, contractBreak: 1, usage: 2, internal: 3 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Bad input (unknown command or flag, bad value): exit 2, the message and a pointer to --help. */
export class UsageError extends Error {}

/** The command could not do its job for a reason the user can act on: exit 3, the message alone. */
export class CommandError extends Error {}
