// What the docs site shows about the API, computed from the version bundles and changelogs (no I/O):
// the versions (newest first), the version header's name, and per version the document handed to
// the renderer, each operation's description prefixed with its versions, version header, scopes and
// example names and followed by its changelog entries.

import { deref, type Json, HTTP_METHODS as METHODS } from '../contract/index.ts';

export interface VersionInput {
  /** The bundle (generated/openapi/<version>.json), parsed. */
  document: Json;
  /** openapi/changelogs/<version>.md, if there is one. */
  changelog?: string;
}

export interface SiteVersion {
  version: string;
  title: string;
  /** The bundle as shown: descriptions enriched, everything else as bundled. */
  document: Json;
}

export interface SiteData {
  /** Versions, newest first (dated versions by date, then the undated ones such as `unstable`). */
  versions: SiteVersion[];
  /** The version header's name, read from the bundles. */
  header: string;
  /** operationId → versions that have it, newest first. */
  operations: Record<string, string[]>;
}

interface Parameter {
  in?: string;
  name?: string;
  schema?: { enum?: unknown[] };
}

/** The version a bundle describes: `info.version`, checked against its version header's enum. */
export function versionOf(document: Json): { version: string; header: string } {
  const version = String(document?.info?.version ?? '');
  const header = Object.values<Parameter>(document?.components?.parameters ?? {}).find(
    (p) => p.in === 'header' && p.schema?.enum?.includes(version),
  )?.name;
  if (!version || !header) {
    throw new Error(`bundle "${document?.info?.title}" has no header parameter whose enum holds its info.version`);
  }
  return { version, header };
}

/** Newest first: ISO dates descending, then other names (e.g. `unstable`) in alphabetical order. */
export function compareVersions(a: string, b: string): number {
  const dated = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
  if (dated(a) !== dated(b)) return dated(a) ? -1 : 1;
  return dated(a) ? b.localeCompare(a) : a.localeCompare(b);
}

interface ChangelogEntry {
  section: string;
  text: string;
}

/** The bullet entries of a changelog, each with the `## ` heading it sits under. */
export function changelogEntries(markdown: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  let section = '';
  let current: ChangelogEntry | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) {
      section = line.slice(3).trim();
      current = undefined;
    } else if (/^[-*] /.test(line)) {
      current = { section, text: line.slice(2).trim() };
      entries.push(current);
    } else if (current && /^\s+\S/.test(line)) {
      current.text += ` ${line.trim()}`;
    } else {
      current = undefined;
    }
  }
  return entries;
}

const code = (text: string) => `\`${text}\``;

/** Names of the examples of a request body or response (`examples` keys, or `example`). */
function exampleNames(document: Json, node: Json): string[] {
  const names = new Set<string>();
  for (const media of Object.values<Json>(deref(document, node)?.content ?? {})) {
    for (const name of Object.keys(media?.examples ?? {})) names.add(name);
    if (media?.example !== undefined && !media?.examples) names.add('example');
  }
  return [...names];
}

function scopesText(security: Json[] | undefined): string {
  if (!security || security.length === 0) return 'none';
  const alternatives = security.map((requirement: Record<string, string[]>) =>
    Object.entries(requirement)
      .map(([scheme, scopes]) => (scopes.length > 0 ? scopes.map(code).join(' and ') : code(scheme)))
      .join(' and '),
  );
  return alternatives.length > 1 ? `${alternatives.join(' or ')} (either is enough)` : (alternatives[0] ?? 'none');
}

/** Builds what the site shows from the bundles (any order) and their changelogs. */
export function siteData(inputs: readonly VersionInput[]): SiteData {
  const described = inputs
    .map((input) => ({ ...input, ...versionOf(input.document) }))
    .sort((a, b) => compareVersions(a.version, b.version));
  const headers = new Set(described.map((d) => d.header));
  if (headers.size !== 1) throw new Error(`the bundles name different version headers: ${[...headers].join(', ')}`);
  const header = described[0]?.header ?? '';

  const operations: Record<string, string[]> = {};
  for (const { document, version } of described) {
    for (const item of Object.values<Json>(document.paths ?? {})) {
      for (const method of METHODS) {
        const id = deref(document, item)?.[method]?.operationId;
        if (id) operations[id] = [...(operations[id] ?? []), version];
      }
    }
  }

  const versions = described.map(({ document, version, changelog }) => {
    const doc = structuredClone(document);
    const entries = changelog ? changelogEntries(changelog) : [];
    for (const item of Object.values<Json>(doc.paths ?? {})) {
      const pathItem = deref(doc, item);
      for (const method of METHODS) {
        const op = pathItem?.[method];
        if (!op?.operationId) continue;
        const id: string = op.operationId;
        const links = (operations[id] ?? [])
          .map((v) => (v === version ? `**${v}**` : `[${v}](?version=${encodeURIComponent(v)}#/operations/${id})`))
          .join(', ');
        const examples: string[] = [];
        const request = exampleNames(doc, op.requestBody);
        if (request.length > 0) examples.push(`request: ${request.map(code).join(', ')}`);
        for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
          const names = exampleNames(doc, response);
          if (names.length > 0) examples.push(`${status}: ${names.map(code).join(', ')}`);
        }
        const facts = [
          `**Versions:** ${links}`,
          `**Version header:** ${code(`${header}: ${version}`)}`,
          `**Scopes:** ${scopesText(op.security ?? doc.security)}`,
          `**Examples:** ${examples.join('; ') || 'none'}`,
        ];
        const mine = entries.filter((e) => e.text.includes(code(id)));
        const log =
          mine.length > 0
            ? `\n\n#### Changelog of version ${version}\n\n${mine.map((e) => `- ${e.section}: ${e.text}`).join('\n')}`
            : '';
        op.description = `${facts.join('  \n')}\n\n${op.description ?? ''}${log}`;
      }
    }
    if (changelog) {
      // The whole changelog of the version closes the overview page; its title becomes a heading.
      const body = changelog.replace(/^# .*\n/, '').replace(/^## /gm, '### ');
      doc.info = { ...doc.info, description: `${doc.info?.description ?? ''}\n\n## Changelog of ${version}\n${body}` };
    }
    return { version, title: String(doc.info?.title ?? version), document: doc };
  });
  return { versions, header, operations };
}
