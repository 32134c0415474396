/**
 * The built CLI, what `npx store-admin-contract` runs from the published package (tsc's output in
 * dist/, no tsx): built afresh by scripts/prepack.ts for a bench that measures it; `remove()`
 * deletes dist/ again unless it was there before.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export function buildCli(root: string): { bin: string; remove(): void } {
  const bin = resolve(root, 'dist/src/cli/bin.js');
  const existed = existsSync(bin);
  const prepack = (...args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/prepack.ts', ...args], { cwd: root, stdio: 'inherit' });
  prepack();
  return { bin, remove: () => (existed ? undefined : prepack('--clean')) };
}
