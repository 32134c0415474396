/**
 * A `--state` file the mock cannot use, no node: import (the package's entry exports it). `usage`
 * (not a state file, another format version: the CLI exits 2) or `unavailable` (in use by another
 * mock, a directory it may not write, a dangling link: exit 3, as a busy port).
 */
export class StateFileError extends Error {
  override name = 'StateFileError';
  constructor(
    message: string,
    readonly kind: 'usage' | 'unavailable' = 'usage',
  ) {
    super(message);
  }
}
