/**
 * List filters as declared per operation (./resources.ts): does a record match a filter's value?
 * On a list's hot path: no array nor closure is made per record (a filter value is one value, or an
 * array of them: any may match).
 */
import type { AnyRecord } from './model/index.ts';
import type { FilterDecl, FilterKind } from './resources.ts';

export function matches(filter: FilterDecl, record: AnyRecord, wanted: unknown): boolean {
  const value = filter.get(record);
  if (!Array.isArray(value)) return matchesOne(filter.kind, value, wanted);
  for (const item of value) if (matchesOne(filter.kind, item, wanted)) return true;
  return false;
}

/** Does all of `filters` match `record`, each with its value in `query`? */
export function matchesAll(filters: readonly FilterDecl[], record: AnyRecord, query: Record<string, unknown>): boolean {
  for (const filter of filters) if (!matches(filter, record, query[filter.param])) return false;
  return true;
}

/** One of the record's values against the filter's value (`any`: one of the wanted values). */
function matchesOne(kind: FilterKind, value: unknown, wanted: unknown): boolean {
  switch (kind) {
    case 'any': {
      const text = String(value);
      for (const w of wanted as unknown[]) if (String(w) === text) return true;
      return false;
    }
    case 'eq':
    case 'bool':
      // Two strings (most filters) compared as they are; String() only for numbers and booleans.
      if (typeof value === 'string' && typeof wanted === 'string') return value === wanted;
      return value !== undefined && value !== null && String(value) === String(wanted);
    case 'from':
      return typeof value === 'string' && value >= String(wanted);
    case 'to':
      return typeof value === 'string' && value <= String(wanted);
  }
}
