/**
 * Compiles dist/, the compiled part of the published package (run by `prepack`, so `npm pack` and
 * `npm publish` always ship a fresh build; `postpack` runs it with --clean to leave the tree as it was):
 *   tsc -p tsconfig.build.json   src/ -> dist/src/**.{js,d.ts} (client, contract, mock, cli...; ESM,
 *                                `.ts` imports rewritten to `.js`) and generated/types/ ->
 *                                dist/generated/types/*.{js,d.ts} (the path types; their .js is empty);
 *                                TypeScript 7 (the devDependency `typescript-7`), which checks and
 *                                emits in ~1.3 s of CPU where 5.9 took ~10 (5.9 emits the same code
 *                                but for the quotes; 5.9 consumers read 7's declarations, tested
 *                                from the tarball by test/package)
 *   tsx scripts/docs.ts          -> dist/docs/ (the reference site the packaged mock serves at /docs)
 * The bin is dist/src/cli/bin.js. Optional peers (Prism, ajv, openapi-typescript) stay imports the
 * user's project resolves; each command loads them only when it runs.
 * Usage: tsx scripts/prepack.ts [--clean]
 */
import { execFile } from 'node:child_process';
import { chmod, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { packageRoot } from '../src/contract/index.ts';

const root = packageRoot();
const dist = join(root, 'dist');
const { values } = parseArgs({ options: { clean: { type: 'boolean', default: false } } });

await rm(dist, { recursive: true, force: true });
if (!values.clean) {
  // By its path: `node_modules/.bin/tsc` may be either TypeScript (docs/ecosystem.md).
  const tsc = join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    console.error(`tsc -p tsconfig.build.json failed:\n${stdout}${stderr}`);
    process.exit(3);
  }
  await chmod(join(dist, 'src/cli/bin.js'), 0o755);
  // tsc copies the bundles the MSW browser entry imports as JSON; the package serves them from
  // generated/openapi/ (its `./openapi/*.json` export, the specifier those imports use).
  await rm(join(dist, 'generated', 'openapi'), { recursive: true, force: true });
  // The API reference site (scripts/docs.ts: Stoplight Elements from node_modules) -> dist/docs,
  // served by the packaged mock at /docs where @stoplight/elements (a devDependency) is absent.
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/docs.ts', '--out', join(dist, 'docs')], {
      cwd: root,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    console.error(`scripts/docs.ts failed:\n${stdout}${stderr}`);
    process.exit(3);
  }
  // stderr: `npm pack --json` prints its JSON on stdout, after this script's output.
  console.error('dist/ built: the client, the contract model, the mock, the CLI, the types, the docs');
}
