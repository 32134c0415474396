/**
 * The state file's lock (node only): `FILE.lock`, created exclusively and holding the owner's pid,
 * so that a second mock on the same file refuses to start instead of interleaving its writes. It is
 * removed on close and at process exit; after a crash (kill -9) it names a dead pid, and the next
 * mock takes it over.
 */
import { closeSync, constants, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { StateFileError } from './state-file-error.ts';

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Takes the lock of `file` (its real path); returns the function that releases it. */
export function acquireLock(file: string, shown: string): () => void {
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lock, EXCLUSIVE, 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' || attempt > 0) {
        const why = code === 'EEXIST' ? 'taken again meanwhile' : code;
        throw new StateFileError(
          `${shown}: cannot create its lock file ${lock} (${why}): the mock writes its lock and compacted copies next to the state file, in a directory it may write`,
          'unavailable',
        );
      }
      const holder = holderOf(lock);
      if (holder !== undefined && alive(holder)) {
        throw new StateFileError(
          `${shown}: in use by another mock (pid ${holder}, lock file ${lock}); stop it, or give this one another --state file`,
          'unavailable',
        );
      }
      unlinkSync(lock); // a stale lock: its process is gone
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    if (holderOf(lock) === process.pid) unlinkSync(lock);
  };
  process.on('exit', release);
  return release;
}

function holderOf(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
