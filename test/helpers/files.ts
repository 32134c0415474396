/** The TypeScript files under a folder, at every depth (the architecture tests walk src/ and scripts/). */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFilesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}
