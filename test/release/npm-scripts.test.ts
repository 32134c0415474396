/**
 * Inside a clone the package's bin is not installed (`npx store-admin-contract` exits 127, issue
 * 27): every command of the CLI has an npm script running it from source, and each one runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundles.ts';
import { runProcess } from '../helpers/process.ts';

const { scripts, devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The CLI's commands (src/cli/index.ts) and the npm script of each (`mock` is `npm start`). */
const COMMANDS = [
  ['mock', 'start'],
  ['conformance', 'conformance'],
  ['fuzz', 'fuzz'],
  ['proxy', 'proxy'],
  ['drift', 'drift'],
  ['types', 'types'],
  ['coverage', 'coverage'],
] as const;

describe('the npm scripts of a clone', () => {
  it('every command has one, in the one form', () => {
    for (const [command, script] of COMMANDS)
      expect(scripts[script]).toBe(`node --import tsx src/cli/bin.ts ${command}`);
  });

  it.concurrent.each(COMMANDS)(
    '%s: `npm run %s -- --help` runs the CLI from source and exits 0',
    async (_command, script) => {
      const result = await runProcess('npm', ['run', '--silent', script, '--', '--help'], {
        cwd: ROOT,
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Usage:');
    },
  );
});

// Two TypeScripts are installed: 5.9 (`typescript`, the library openapi-typescript and the type tests
// load, and dist/'s compiler) and 7 (`typescript-7`, the repository's type-check). Both packages
// declare the bin `tsc`: `npm ci` links 5.9's (npm links bins in path order), a later `npm install`
// may link 7's. So no script runs `tsc` by that name.
describe('the two TypeScripts', () => {
  it('the type-check runs TypeScript 7 by its path, and no script runs the ambiguous `tsc`', async () => {
    for (const [name, command] of Object.entries(scripts)) expect(command, name).not.toMatch(/(^|&&\s*)tsc\b/);
    expect(scripts.typecheck).toBe('node node_modules/typescript-7/bin/tsc -p .');
    expect(scripts.lint?.endsWith(`&& ${scripts.typecheck}`)).toBe(true);
    const version = await runProcess(process.execPath, ['node_modules/typescript-7/bin/tsc', '--version'], {
      cwd: ROOT,
    });
    expect(devDependencies['typescript-7']).toMatch(/^npm:typescript@7\.\d+\.\d+$/);
    expect(`npm:typescript@${version.stdout.trim().replace('Version ', '')}`).toBe(devDependencies['typescript-7']);
  });
});
