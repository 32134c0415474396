/**
 * Checks the contract source before any tool resolves it (scripts/lib/source-guard.ts): every file
 * reachable from the roots of redocly.yaml stays inside openapi/, names no URL, is at most 1 MiB
 * and parses within the YAML alias budget. `npm run lint` runs it before `redocly lint`, so a
 * hostile `$ref` is refused before Redocly reads or fetches it.
 * Usage: tsx scripts/check-sources.ts [--config redocly.yaml]   (run from the package folder)
 * Exit codes (src/cli/exit-codes.ts): 0 the source is safe to resolve, 2 bad flag, 3 refused.
 */
import { parseArgs } from 'node:util';
import { EXIT } from '../src/cli/index.ts';
import { checkSources, configuredRoots, SourceGuardError } from './lib/source-guard.ts';

let config = 'redocly.yaml';
try {
  config = parseArgs({ options: { config: { type: 'string', default: 'redocly.yaml' } } }).values.config ?? config;
} catch (error) {
  console.error(`check-sources: ${(error as Error).message}`);
  process.exit(EXIT.usage);
}
try {
  const roots = await configuredRoots(config);
  await checkSources(roots);
  console.log(`check-sources: ${roots.length} root documents, every reachable source stays inside openapi/`);
} catch (error) {
  console.error(`check-sources: ${error instanceof SourceGuardError ? error.message : (error as Error).stack}`);
  process.exit(EXIT.internal);
}
