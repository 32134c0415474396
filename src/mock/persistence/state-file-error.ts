/** A `--state` file the mock cannot use (not a state file, another format version): the CLI exits 2. No node: import, so the package's entry can export it. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}
