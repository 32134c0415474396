/** List filters as declared per operation (./resources.ts): does a record match a filter's value? */
import type { Rec } from './model/index.ts';
import type { FilterDecl } from './resources.ts';

export function matches(filter: FilterDecl, record: Rec, wanted: unknown): boolean {
  const value = filter.get(record);
  const values = Array.isArray(value) ? value : [value];
  switch (filter.kind) {
    case 'any':
      return (wanted as unknown[]).some((w) => values.some((v) => String(v) === String(w)));
    case 'eq':
    case 'bool':
      return values.some((v) => v !== undefined && v !== null && String(v) === String(wanted));
    case 'from':
      return values.some((v) => typeof v === 'string' && v >= String(wanted));
    case 'to':
      return values.some((v) => typeof v === 'string' && v <= String(wanted));
  }
}
