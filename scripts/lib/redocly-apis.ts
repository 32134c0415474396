/**
 * The API versions this repo builds, read from redocly.yaml (`apis: store-admin@<version>: {root,
 * output}`), newest first: the one list the build, the lint and the docs iterate over. What ships
 * (src/contract's VERSIONS) is generated from the bundles these entries produce.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { packageRoot } from '../../src/contract/index.ts';

export interface RedoclyApi {
  /** `store-admin@2024-04-01` */
  alias: string;
  version: string;
  /** Hand-written root document, relative to the repo root. */
  root: string;
  /** Bundle output (YAML), relative to the repo root. */
  output: string;
}

export function redoclyApis(root: string = packageRoot()): RedoclyApi[] {
  const file = join(root, 'redocly.yaml');
  const config = parse(readFileSync(file, 'utf8'), { maxAliasCount: 0 }) as { apis?: Record<string, RedoclyApi> };
  const apis = Object.entries(config.apis ?? {}).map(([alias, api]) => {
    const version = alias.split('@')[1];
    if (!version || !api?.root || !api.output)
      throw new Error(`${file}: apis.${alias} needs <name>@<version>, root and output`);
    return { alias, version, root: api.root, output: api.output };
  });
  if (apis.length === 0) throw new Error(`${file}: no apis`);
  return apis;
}
