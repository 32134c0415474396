/** The rule of snapshot names (the admin endpoints refuse others; the state file's loader skips them). */
const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export const SNAPSHOT_NAME_RULE =
  'name must be 1-64 letters, digits, ".", "_" or "-", and not "." or ".." (a path segment of /__mock/snapshots/{name})';

/** Why `name` cannot name a snapshot, or undefined. */
export function snapshotNameProblem(name: unknown): string | undefined {
  const ok = typeof name === 'string' && SNAPSHOT_NAME.test(name) && name !== '.' && name !== '..';
  return ok ? undefined : SNAPSHOT_NAME_RULE;
}
