/**
 * The guard every tool runs before it lets Redocly, openapi-typescript or the diff resolve a
 * single `$ref`: the contract is built only from files inside `openapi/`, nothing is fetched, and
 * no source file can exhaust the machine.
 *
 * `checkSources(roots)` walks every file reachable from the root documents, the way the bundler
 * will, but reads each one itself first:
 *   - a file over `maxBytes` (1 MiB) is refused before it is parsed;
 *   - YAML/JSON is parsed with a bounded parser (`yaml`, `maxAliasCount`), so an alias bomb
 *     ("billion laughs") fails in milliseconds instead of expanding into gigabytes;
 *   - every `$ref` is checked before it is followed: a URL (`http:`, `file:`, any scheme, or a
 *     protocol-relative `//host`) or a path resolving outside `openapi/` (`../../etc/passwd`, an
 *     absolute path, or a symbolic link whose target lies outside) is refused.
 * Every problem names the file, the JSON pointer of the `$ref` and the rule; all of them are
 * collected and thrown at once as a `SourceGuardError`.
 *
 * `assertLocalRefs(document, label)` is the same rule for an already bundled document (the types
 * generator and the diff read bundles): every `$ref` must point inside the document (`#/…`).
 *
 * The house lint rule `house/no-external-ref` (openapi/rules/house-rules.js) reports the same
 * `$ref`s in `redocly lint`; this guard is what keeps them from being read or fetched at all.
 */
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parseDocument } from 'yaml';

/** Rule ids, as they appear in messages (`rule no-external-ref`). */
export type SourceRule =
  | 'no-external-ref' // a `$ref` naming a URL or leaving openapi/
  | 'source-too-large' // a file over the size limit
  | 'yaml-alias-limit' // too many alias expansions (an alias bomb)
  | 'source-unreadable' // a file that cannot be parsed or read
  | 'too-many-sources'; // more files reachable than the limit

export interface SourceProblem {
  /** The file, relative to the working directory when inside it. */
  file: string;
  /** JSON pointer inside the file (`#/properties/planted/$ref`), `#` for the whole file. */
  pointer: string;
  rule: SourceRule;
  message: string;
}

/** Thrown by the guard: every problem found, each naming its file, pointer and rule. */
export class SourceGuardError extends Error {
  readonly problems: readonly SourceProblem[];
  constructor(problems: readonly SourceProblem[], what = 'the contract source') {
    const lines = problems.map((p) => `  ${p.file}${p.pointer}: ${p.message} (rule ${p.rule})`);
    super(`refusing ${what}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${lines.join('\n')}`);
    this.name = 'SourceGuardError';
    this.problems = problems;
  }
}

export interface SourceGuardOptions {
  /** The folder every source must stay in; default `openapi/` of the working directory. */
  sourceDir?: string;
  /** Largest source file accepted, in bytes; default 1 MiB. */
  maxBytes?: number;
  /** `yaml`'s alias budget (alias uses weighted by their size); default 100, as in `yaml`. */
  maxAliasCount?: number;
  /** Most files reachable from the roots; default 2,000. */
  maxFiles?: number;
}

export const LIMITS = { maxBytes: 1024 * 1024, maxAliasCount: 100, maxFiles: 2000 } as const;

/** A `$ref` naming a URL: any scheme (`http:`, `file:`, `data:`…) or a protocol-relative `//host`. */
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|\\\\)/i;

const PARSED = new Set(['.yaml', '.yml', '.json']);

/** `a/b` JSON pointer segment escaping (`~` -> `~0`, `/` -> `~1`). */
const segment = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

const inside = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

const display = (path: string) => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
};

/** Every string `$ref` in a parsed value, with its JSON pointer; shared nodes (aliases) once. */
function collectRefs(value: unknown): { ref: string; pointer: string }[] {
  const found: { ref: string; pointer: string }[] = [];
  const seen = new Set<object>();
  const stack: { node: unknown; pointer: string }[] = [{ node: value, pointer: '#' }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop() as { node: unknown; pointer: string };
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    for (const [key, child] of Object.entries(node)) {
      const at = `${pointer}/${segment(key)}`;
      if (key === '$ref' && typeof child === 'string') found.push({ ref: child, pointer: at });
      else stack.push({ node: child, pointer: at });
    }
  }
  return found.sort((a, b) => a.pointer.localeCompare(b.pointer));
}

/**
 * Why a `$ref` written in `file` may not be followed (undefined: it may), and the file it names.
 * The path is checked as written and percent-decoded, so `..%2F..` cannot slip through either way.
 */
export function refTarget(ref: string, file: string, sourceDir: string): { refused?: string; target?: string } {
  const trimmed = ref.trim();
  if (URL_LIKE.test(trimmed)) return { refused: `$ref ${JSON.stringify(ref)} names a URL; nothing is fetched` };
  const path = trimmed.split('#')[0] ?? '';
  if (path === '') return {}; // a pointer inside the same file
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // not percent-encoded: the path as written is what a resolver would open
  }
  for (const candidate of new Set([path, decoded])) {
    if (candidate.includes('\0') || URL_LIKE.test(candidate)) {
      return { refused: `$ref ${JSON.stringify(ref)} names a URL; nothing is fetched` };
    }
    const target = resolve(dirname(file), candidate);
    if (!inside(sourceDir, target)) {
      return { refused: `$ref ${JSON.stringify(ref)} leaves ${display(sourceDir)}/ (resolves to ${target})` };
    }
  }
  return { target: resolve(dirname(file), path) };
}

/** Reads and parses one source file within the limits; problems are pushed, the value returned. */
async function readSource(
  file: string,
  options: Required<Omit<SourceGuardOptions, 'sourceDir'>>,
  problems: SourceProblem[],
): Promise<unknown> {
  const shown = display(file);
  const info = await stat(file);
  if (!info.isFile()) {
    problems.push({ file: shown, pointer: '#', rule: 'source-unreadable', message: 'not a regular file' });
    return undefined;
  }
  if (info.size > options.maxBytes) {
    problems.push({
      file: shown,
      pointer: '#',
      rule: 'source-too-large',
      message: `${info.size} bytes, over the limit of ${options.maxBytes} bytes for a source file`,
    });
    return undefined;
  }
  const text = await readFile(file, 'utf8');
  if (!PARSED.has(extname(file).toLowerCase())) return undefined; // Markdown descriptions: text only
  const document = parseDocument(text, { merge: true, prettyErrors: false, uniqueKeys: false });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    problems.push({
      file: shown,
      pointer: '#',
      rule: 'source-unreadable',
      message: `invalid YAML: ${first?.message.split('\n')[0]}`,
    });
    return undefined;
  }
  try {
    return document.toJS({ maxAliasCount: options.maxAliasCount });
  } catch (error) {
    const message = (error as Error).message;
    if (/alias/i.test(message)) {
      problems.push({
        file: shown,
        pointer: '#',
        rule: 'yaml-alias-limit',
        message: `YAML aliases expand beyond the limit (maxAliasCount ${options.maxAliasCount}): an alias bomb?`,
      });
    } else {
      problems.push({ file: shown, pointer: '#', rule: 'source-unreadable', message: `invalid YAML: ${message}` });
    }
    return undefined;
  }
}

/**
 * Checks every source file reachable from `roots` (paths relative to the working directory)
 * before anything resolves them; throws a `SourceGuardError` listing every problem.
 */
export async function checkSources(roots: readonly string[], options: SourceGuardOptions = {}): Promise<void> {
  const limits = {
    maxBytes: options.maxBytes ?? LIMITS.maxBytes,
    maxAliasCount: options.maxAliasCount ?? LIMITS.maxAliasCount,
    maxFiles: options.maxFiles ?? LIMITS.maxFiles,
  };
  const declaredDir = resolve(options.sourceDir ?? 'openapi');
  const sourceDir = await realpath(declaredDir).catch(() => declaredDir);
  const problems: SourceProblem[] = [];
  const queued = new Set<string>();
  const queue: string[] = [];

  /** Queues a file named by a root or a `$ref`, once it is known to stay inside, links resolved. */
  const enqueue = async (path: string, from: string, pointer: string, ref: string) => {
    // A missing file is not the guard's business: the bundler reports it as an unresolved $ref.
    const exists = await lstat(path).then(
      () => true,
      () => false,
    );
    if (!exists) return;
    const real = await realpath(path).catch(() => path);
    if (!inside(sourceDir, real)) {
      problems.push({
        file: from,
        pointer,
        rule: 'no-external-ref',
        message: `${ref} leaves ${display(declaredDir)}/ through a symbolic link (to ${real})`,
      });
      return;
    }
    if (queued.has(real)) return;
    if (queued.size >= limits.maxFiles) {
      if (!problems.some((p) => p.rule === 'too-many-sources')) {
        problems.push({
          file: from,
          pointer,
          rule: 'too-many-sources',
          message: `more than ${limits.maxFiles} source files are reachable from the roots`,
        });
      }
      return;
    }
    queued.add(real);
    queue.push(real);
  };

  for (const root of roots) {
    const path = resolve(root);
    const shown = display(path);
    if (!inside(declaredDir, path)) {
      problems.push({
        file: shown,
        pointer: '#',
        rule: 'no-external-ref',
        message: `the root document lies outside ${display(declaredDir)}/`,
      });
      continue;
    }
    await enqueue(path, shown, '#', 'the root document');
  }
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const value = await readSource(file, limits, problems).catch((error: Error) => {
      problems.push({ file: display(file), pointer: '#', rule: 'source-unreadable', message: error.message });
      return undefined;
    });
    for (const { ref, pointer } of collectRefs(value)) {
      const { refused, target } = refTarget(ref, file, sourceDir);
      if (refused) problems.push({ file: display(file), pointer, rule: 'no-external-ref', message: refused });
      else if (target) await enqueue(target, display(file), pointer, `$ref ${JSON.stringify(ref)}`);
    }
  }
  if (problems.length > 0) throw new SourceGuardError(problems);
}

/**
 * Throws a `SourceGuardError` when a bundled document holds a `$ref` that does not point inside
 * itself (`#…`): a bundle is self-contained, so anything else would be read or fetched by whoever
 * resolves it. `label` names the document in the message (`generated/openapi/2024-04-01.json`).
 */
export function assertLocalRefs(document: unknown, label: string): void {
  const problems: SourceProblem[] = collectRefs(document)
    .filter(({ ref }) => !ref.startsWith('#'))
    .map(({ ref, pointer }) => ({
      file: label,
      pointer,
      rule: 'no-external-ref',
      message: URL_LIKE.test(ref.trim())
        ? `$ref ${JSON.stringify(ref)} names a URL; nothing is fetched`
        : `$ref ${JSON.stringify(ref)} points outside the bundle`,
    }));
  if (problems.length > 0) throw new SourceGuardError(problems, label);
}

/** The `root` of every API in a Redocly config file (`apis: {name: {root}}`), relative to its folder. */
export async function configuredRoots(configFile = 'redocly.yaml'): Promise<string[]> {
  const file = resolve(configFile);
  const document = parseDocument(await readFile(file, 'utf8'));
  const config = document.toJS({ maxAliasCount: LIMITS.maxAliasCount }) as {
    apis?: Record<string, { root?: unknown }>;
  } | null;
  return Object.values(config?.apis ?? {})
    .map((api) => api.root)
    .filter((root): root is string => typeof root === 'string')
    .map((root) => relative(process.cwd(), resolve(dirname(file), root)));
}
