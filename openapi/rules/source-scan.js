// The guard of the Redocly CLI itself: house-rules.js runs `scanSources()` while Redocly loads the
// configuration, that is before it resolves a single `$ref`, so `redocly lint`/`bundle` run by
// hand refuse what scripts/lib/source-guard.ts refuses for the build and `npm run lint`: a `$ref`
// naming a URL (nothing is fetched) or leaving openapi/ (nothing outside is read), a source file
// over 1 MiB, YAML whose aliases expand past the budget.
//
// It must work without node_modules (lint tests copy openapi/ alone), so it reads `$ref`s from the
// text: every file under openapi/ is scanned, and a `$ref` written in a way the scan cannot read
// for sure (escapes, anchors, aliases, tags, block scalars, flow collections) is refused rather
// than guessed. The alias budget is checked with the `yaml` package when it can be loaded.
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** openapi/, the parent of this file's folder. */
export const SOURCE_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const MAX_BYTES = 1024 * 1024;
const MAX_ALIAS_COUNT = 100;
const PARSED = new Set(['.yaml', '.yml', '.json']);

/** A `$ref` naming a URL: any scheme (`http:`, `file:`…) or a protocol-relative `//host`. */
export const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|\\\\)/i;

const realSourceDir = (() => {
  try {
    return realpathSync(SOURCE_DIR);
  } catch {
    return SOURCE_DIR;
  }
})();

export const insideSources = (path) => {
  const rel = relative(realSourceDir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Why `ref`, written in `file`, may not be followed; undefined when it may. */
export function refusal(ref, file) {
  const value = ref.trim();
  if (URL_LIKE.test(value)) return 'names a URL; nothing is fetched';
  const path = value.split('#')[0] ?? '';
  if (path === '') return undefined;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {}
  for (const candidate of new Set([path, decoded])) {
    if (candidate.includes('\0') || URL_LIKE.test(candidate)) return 'names a URL; nothing is fetched';
    const target = resolve(dirname(file), candidate);
    if (!insideSources(target)) return `leaves openapi/ (resolves to ${target})`;
    let real = target;
    try {
      real = realpathSync(target);
    } catch {
      continue; // missing: Redocly reports it as unresolved
    }
    if (!insideSources(real)) return `leaves openapi/ through a symbolic link (to ${real})`;
  }
  return undefined;
}

/** Every `.yaml`/`.yml`/`.json` file below openapi/ (symbolic links are not followed). */
function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.isFile() && PARSED.has(extname(entry.name).toLowerCase())) out.push(path);
  }
  return out;
}

const ESCAPED_DOLLAR = /\\(?:u0024|x24|U00000024|\$)/;
/** A `$ref` key: plain or quoted, as a block or flow mapping key (`? $ref` too). */
const REF_KEY = /(^|[\s{,[?-])(["']?)\$ref\2[ \t]*:/gm;
const UNSURE = /^[&*!|>[{@`%]/;

const lineOf = (text, index) => text.slice(0, index).split('\n').length;
const indentOf = (line) => line.length - line.trimStart().length;

/** The value after a `$ref:` at `index` (YAML folding applied), or a reason it cannot be read. */
function refValue(text, index) {
  let i = index;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    let j = i + 1;
    let raw = '';
    for (; j < text.length; j++) {
      if (text[j] === quote) {
        if (quote === "'" && text[j + 1] === "'") {
          raw += "'";
          j++;
          continue;
        }
        break;
      }
      if (quote === '"' && text[j] === '\\') return { unsure: 'an escape sequence in a quoted $ref' };
      raw += text[j];
    }
    if (j >= text.length) return { unsure: 'an unterminated quoted $ref' };
    return { value: raw.replace(/[ \t]*\r?\n[ \t]*/g, ' ') };
  }
  if (text[i] === '\n' || text[i] === '\r' || text[i] === undefined) {
    return { unsure: 'a $ref whose value is not on the same line' };
  }
  const end = text.indexOf('\n', i);
  let value = text
    .slice(i, end === -1 ? undefined : end)
    .replace(/\s+#.*$/, '')
    .trim();
  if (UNSURE.test(value)) return { unsure: 'YAML syntax around a $ref the scan cannot follow' };
  // In a flow collection (`{$ref: ./a.yaml}`) a plain value ends at `,`, `}` or `]`: accept only a
  // value alone in its mapping. In a block mapping, `{`/`}` are part of the value (`@{id}.yaml`).
  const lineStart = text.lastIndexOf('\n', index) + 1;
  if (/[{[,]/.test(text.slice(lineStart, index))) {
    value = value.replace(/[ \t]*[}\]]+[ \t]*,?$/, '');
    if (/[,{}[\]]/.test(value)) return { unsure: 'a $ref inside a flow collection the scan cannot follow' };
  }
  // A plain scalar continued on more indented lines is folded into one value.
  const lines = text.split('\n');
  const at = lineOf(text, index) - 1;
  const indent = indentOf(lines[at] ?? '');
  for (let k = at + 1; k < lines.length; k++) {
    const line = lines[k] ?? '';
    if (line.trim() === '' || indentOf(line) <= indent) break;
    if (line.trim().startsWith('#')) break;
    value += ` ${line.trim()}`;
  }
  return { value };
}

/** Problems of one file: `{file, line, message}`. */
function scanFile(file, text, yaml) {
  const problems = [];
  const report = (index, message) => problems.push({ file, line: lineOf(text, index), message });
  const escaped = ESCAPED_DOLLAR.exec(text);
  if (escaped) report(escaped.index, 'an escaped `$` (a `$ref` the scan cannot see); write `$ref` as is');
  for (const match of text.matchAll(REF_KEY)) {
    const { value, unsure } = refValue(text, (match.index ?? 0) + match[0].length);
    if (unsure) report(match.index ?? 0, `${unsure}; write it as \`$ref: <path>\``);
    else {
      const why = refusal(value, file);
      if (why) report(match.index ?? 0, `$ref ${JSON.stringify(value)} ${why}`);
    }
  }
  if (yaml && problems.length === 0) {
    const document = yaml.parseDocument(text, { merge: true, uniqueKeys: false });
    if (document.errors.length === 0) {
      try {
        document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
      } catch (error) {
        if (/alias/i.test(error.message)) {
          report(0, `YAML aliases expand beyond the limit (maxAliasCount ${MAX_ALIAS_COUNT}): an alias bomb?`);
        }
      }
    }
  }
  return problems;
}

/**
 * Scans every source file of openapi/; throws one Error listing every problem (`file:line: …
 * (rule no-external-ref)`), so Redocly stops loading its configuration before resolving anything.
 */
export async function scanSources() {
  let yaml;
  try {
    yaml = await import('yaml');
  } catch {
    yaml = undefined; // no node_modules (a copy of openapi/ alone): `$ref`s and sizes are still checked
  }
  const problems = [];
  for (const file of sourceFiles(SOURCE_DIR)) {
    const shown = relative(process.cwd(), file) || file;
    const size = lstatSync(file).size;
    if (size > MAX_BYTES) {
      problems.push(`${shown}: ${size} bytes, over the limit of ${MAX_BYTES} bytes (rule source-too-large)`);
      continue;
    }
    for (const p of scanFile(file, readFileSync(file, 'utf8'), yaml)) {
      const rule = /alias/.test(p.message) ? 'yaml-alias-limit' : 'no-external-ref';
      problems.push(`${shown}:${p.line}: ${p.message} (rule ${rule})`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`refusing the contract source (openapi/rules/source-scan.js):\n  ${problems.join('\n  ')}`);
  }
}
