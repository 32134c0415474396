/**
 * `drift --propose`: each finding turned into one edit of the hand-written source in `openapi/`
 * (./edits.ts), with its evidence; the edited contract rebuilt in a scratch copy (the package's own
 * `scripts/build.ts`, so --propose runs in a checkout of the contract) and compared with the current
 * bundles by the breaking-change guard (src/guard), so that each edit is shown breaking or not for
 * clients. A dry run prints the edits and a unified diff; `write` applies them, adds each to the
 * changelog of every version whose bundle holds the edited file, and rebuilds.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type Document, isMap, parseDocument, type YAMLMap } from 'yaml';
import { addEnumValues, addNull, addType, declareStatus, dropNull, nodeAt, openSet, widenBound } from './edits.ts';
import type { DriftReport, Finding } from './findings.ts';
import type { FieldStats } from './stats.ts';

export interface Edit {
  finding: Finding;
  /** `openapi/components/schemas/Order.yaml`, relative to the contract's root. */
  file: string;
  /** What the edit does, with its evidence. */
  description: string;
  /** The places (operation, version, field) the edit reaches, for the guard's verdict. */
  places: { operation: string; version: string; field: string }[];
  /** The guard's worst severity over the changes it reports at those places (`none`: no change). */
  verdict?: 'breaking' | 'warning' | 'info' | 'none';
  changes?: string[];
}

export interface Declined {
  finding: Finding;
  reason: string;
}

export interface Proposal {
  edits: Edit[];
  declined: Declined[];
  /** File → its text before and after the edits. */
  files: Map<string, { before: string; after: string }>;
}

/** Source YAML files, parsed once, edited in place. */
class Sources {
  readonly documents = new Map<string, { before: string; document: Document }>();
  constructor(private readonly root: string) {}
  open(file: string): Document | undefined {
    const known = this.documents.get(file);
    if (known) return known.document;
    let before: string;
    try {
      before = readFileSync(join(this.root, file), 'utf8');
    } catch {
      return undefined;
    }
    const document = parseDocument(before);
    this.documents.set(file, { before, document });
    return document;
  }
  texts(): Proposal['files'] {
    const out: Proposal['files'] = new Map();
    for (const [file, { before, document }] of this.documents) {
      const after = document.toString({ lineWidth: 0, flowCollectionPadding: false, singleQuote: true });
      if (after !== before) out.set(file, { before, after });
    }
    return out;
  }
}

const place = (s: { operation: string; version: string; field: string }) => ({
  operation: s.operation,
  version: s.version,
  field: s.field,
});

/** The declaration's places: every field reaching it, or the finding's own. */
function placesOf(finding: Finding, fields: FieldStats[]) {
  const same = fields.filter((s) => finding.at && s.declaration.at === finding.at);
  return same.length > 0 ? same.map(place) : [place(finding)];
}

const valuesOf = (finding: Finding) =>
  [...finding.detail.matchAll(/"((?:[^"\\]|\\.)*)" x\d+/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);

/** One edit of a schema declaration; undefined or a reason when it does not apply. */
function editSchema(finding: Finding, map: YAMLMap, document: Document, fields: FieldStats[]): string | undefined {
  const stats = fields.filter((s) => s.declaration.at === finding.at);
  const types = stats[0]?.declaration.types ?? [];
  switch (finding.kind) {
    case 'never-null':
      return dropNull(document, map, types);
    case 'null':
      return addNull(document, map);
    case 'closed-set':
      return openSet(document, map, valuesOf(finding).sort());
    case 'enum':
      return addEnumValues(
        document,
        map,
        [...finding.detail.matchAll(/value (\S+)/g)].map((m) => m[1] as string),
      );
    case 'type': {
      const type = /got (\w+)/.exec(finding.detail)?.[1];
      return type ? addType(document, map, type === 'number' ? 'number' : type) : 'no type seen';
    }
    case 'bounds': {
      const rule = /^(\w+):/.exec(finding.detail)?.[1] ?? '';
      const low = rule.startsWith('min') || rule === 'exclusiveMinimum';
      const seen = stats.map((s) => (low ? s.min : s.max)).filter((n): n is number => n !== undefined);
      if (seen.length === 0 || rule.endsWith('Length') || rule.endsWith('Items')) return `${rule} on a length`;
      return widenBound(map, rule, low ? Math.min(...seen) : Math.max(...seen));
    }
    default:
      return `${finding.kind} is information: no edit`;
  }
}

function describe(finding: Finding, name: string): string {
  const what: Record<string, string> = {
    'never-null': 'drop null',
    null: 'allow null',
    'closed-set': 'state the values seen as known values of an open set',
    enum: 'add the values seen to the enum',
    type: 'allow the type seen',
    bounds: 'widen the bound to the value seen',
    status: 'declare the status seen',
  };
  return `${name}: ${what[finding.kind] ?? finding.kind} (${finding.detail ? `${finding.detail}; ` : ''}${finding.count} seen in ${finding.operation} ${finding.version}${finding.alsoIn?.length ? ` and ${finding.alsoIn.length} other places` : ''})`;
}

/** The path file of an operation in a version: the file naming its operationId and the version's header. */
function pathFileOf(root: string, operation: string, version: string, files: string[]): string | undefined {
  return files.find((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return text.includes(`operationId: ${operation}\n`) && text.includes(`#/ApiVersion-${version}`);
  });
}

/**
 * Where an edit goes: the declaration, or for a broken bound or type written in the schema it
 * `$ref`s (a shared scalar such as StockCounter), that schema's file: the rule is widened where it is written.
 */
function target(sources: Sources, finding: Finding, file: string, pointer: string) {
  const document = sources.open(file);
  const map = document && nodeAt(document, pointer);
  const rule = finding.kind === 'type' ? 'type' : /^(\w+):/.exec(finding.detail)?.[1];
  const ref = map?.get('$ref');
  if (!map || !rule || !['type', 'bounds'].includes(finding.kind) || map.has(rule) || typeof ref !== 'string') {
    return { file, document, map };
  }
  const referenced = join(dirname(file), ref);
  const other = sources.open(referenced);
  return { file: referenced, document: other, map: other && nodeAt(other, '') };
}

/** The operation object (under its method) of a path file. */
function operationIn(document: Document, id: string): YAMLMap | undefined {
  const item = document.contents as YAMLMap;
  const found = item.items.find((p) => isMap(p.value) && p.value.get('operationId') === id);
  return found?.value as YAMLMap | undefined;
}

/** `Order.lines[]`, or `StockCounter (for StockRecord.num_allocated)` when the rule is written in the schema it refers to. */
function nameOf(component: string, pointer: string, file: string): string {
  const field = `${component}${pointer.replace(/\/properties\//g, '.').replace(/\/items/g, '[]')}`;
  const target = basename(file, '.yaml');
  return file.startsWith('openapi/components/schemas/') && target !== component ? `${target} (for ${field})` : field;
}

/** Plans and applies one edit per finding on the source documents. */
export function planEdits(report: DriftReport, root: string, pathFiles: string[]): Proposal {
  const sources = new Sources(root);
  const edits: Edit[] = [];
  const declined: Declined[] = [];
  for (const finding of report.findings) {
    const decline = (reason: string) => declined.push({ finding, reason });
    if (finding.kind === 'status') {
      const file = pathFileOf(root, finding.operation, finding.version, pathFiles);
      const document = file && sources.open(file);
      const operation = document && operationIn(document, finding.operation);
      const status = /status (\d{3})/.exec(finding.detail)?.[1];
      if (!file || !document || !operation || !status) {
        decline('its path file was not found');
        continue;
      }
      const reason = declareStatus(document, operation as YAMLMap, status);
      if (reason) decline(reason);
      else
        edits.push({
          finding,
          file,
          description: describe(finding, `${finding.operation} ${status}`),
          places: [{ operation: finding.operation, version: finding.version, field: `status ${status}` }],
        });
      continue;
    }
    const [component, pointer] = (finding.at ?? '').split('#');
    if (!component || pointer === undefined) {
      decline(
        finding.at
          ? 'declared inline in an operation: edit its path file by hand'
          : `${finding.kind} is not an edit of a declaration`,
      );
      continue;
    }
    const { file, document, map } = target(sources, finding, `openapi/components/schemas/${component}.yaml`, pointer);
    const reason = map && document ? editSchema(finding, map, document, report.fields) : `${file}${pointer} not found`;
    if (reason) decline(reason);
    else
      edits.push({
        finding,
        file,
        description: describe(finding, nameOf(component, pointer, file)),
        places: placesOf(finding, report.fields),
      });
  }
  return { edits, declined, files: sources.texts() };
}
