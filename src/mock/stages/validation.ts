/**
 * Stage validation: path parameters, query and body against the operation's schemas (validators
 * precompiled from the bundle, src/validation); every violation is named in one 422. A parameter
 * that takes one value (`cursor`, any non-array filter) sent twice is refused (400 naming it), and
 * so is a cursor the mock did not issue (400 naming `query.cursor`). A query parameter the
 * operation does not declare (a misspelled filter) is ignored, as a real API would, but named in
 * UNKNOWN_QUERY_HEADER (src/http) on the answer; with `strictQuery` it is refused (400 naming it).
 */

import { fieldRefusal, refusal, summarize, UNKNOWN_QUERY_HEADER } from '../../http/index.ts';
import { decodeCursor } from '../pagination.ts';
import type { Checked, Incoming, Parsed, RawResponse, Routed, Stage } from './context.ts';

type Checking = Incoming & Routed & Parsed & Checked;

import { refuseRouted } from './respond.ts';

function decodePath(text: string): string {
  // Only a segment with an escape is decoded (most are plain ids).
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The query's parameter names the operation does not declare, each once, in the order sent. */
function unknownParams(context: Checking): string[] {
  const declared = context.target.validator.queryParams;
  const unknown: string[] = [];
  for (const name of context.searchParams.keys()) {
    if (!unknown.includes(name) && !declared.some((p) => p.name === name)) unknown.push(name);
  }
  return unknown;
}

/** Unknown query parameters: named on the answer, or refused under `strictQuery`. */
function checkUnknown(context: Checking): RawResponse | undefined {
  const unknown = unknownParams(context);
  if (unknown.length === 0) return undefined;
  const names = unknown.join(', ');
  if (context.core.strictQuery) {
    // Strict: a parameter the operation does not take is an error, not a silent no-op.
    const declared = context.target.validator.queryParams.map((p) => p.name);
    const takes = declared.length > 0 ? `it takes ${declared.join(', ')}` : 'it takes no query parameters';
    const violations = unknown.map((name) => ({
      field: `query.${name}`,
      rule: 'unknown',
      message: `query.${name}: ${context.problem.operation} has no query parameter "${name}"; ${takes}.`,
      location: ['query', name],
    }));
    const detail = `Unknown query parameter(s) ${unknown.map((n) => `query.${n}`).join(', ')} (strict query).`;
    return refuseRouted(context, refusal('badRequest', detail, violations, context.problem));
  }
  // The route stage's headers are shared by every answer of the operation: copied, not changed.
  context.served = { ...context.served, [UNKNOWN_QUERY_HEADER]: names };
  return undefined;
}

/** A parameter that takes one value but was sent more than once, if any. */
function repeatedParam(context: Checking) {
  const { searchParams } = context;
  for (const p of context.target.validator.queryParams)
    if (p.kind !== 'array' && searchParams.getAll(p.name).length > 1) return p;
  return undefined;
}

/** The path's parameters by name, as sent (decoded). */
function pathValues(target: Checking['target'], pathname: string): Record<string, string> {
  const names = target.pathNames;
  const values: Record<string, string> = {};
  // A path without parameters (a create's) is not matched again for none.
  if (names.length === 0) return values;
  const captured = target.pathPattern.exec(pathname);
  for (let i = 0; i < names.length; i++) values[names[i] as string] = decodePath(captured?.[i + 1] ?? '');
  return values;
}

export const validation: Stage<Incoming & Routed & Parsed, Checked> = {
  name: 'validation',
  run: (context) => {
    const { target, searchParams } = context;
    const { validator } = target;
    // Only a request with a query pays for the look.
    if (searchParams.size > 0) {
      const refused = checkUnknown(context);
      if (refused) return refused;
    }
    // Without a query nothing is repeated.
    const repeated = searchParams.size > 1 ? repeatedParam(context) : undefined;
    if (repeated) {
      // One value expected, several sent: which one counts is not for the mock to guess.
      const times = searchParams.getAll(repeated.name).length;
      const message = `query parameter ${repeated.name} was sent ${times} times; it takes one value.`;
      return refuseRouted(
        context,
        fieldRefusal('badRequest', { field: `query.${repeated.name}`, rule: 'duplicate', message }, context.problem),
      );
    }
    const path = validator.checkPath(pathValues(target, context.pathname));
    const query = validator.checkQuery(searchParams);
    context.path = path.values;
    context.query = query.query;
    const violations = path.violations.length > 0 ? [...path.violations, ...query.violations] : query.violations;
    if (context.body !== undefined) violations.push(...validator.checkBody(context.body));
    else if (validator.hasBody && validator.bodyRequired) {
      violations.push({ field: 'body', rule: 'required', message: 'Body parameter is required', location: ['body'] });
    }
    if (violations.length > 0) {
      // The request breaks the contract: every broken rule named.
      const { operation, version } = context.problem;
      const detail = `The request breaks the contract of ${operation} (${version}): ${summarize(violations)}.`;
      return refuseRouted(context, refusal('invalidRequest', detail, violations, context.problem));
    }
    const cursorText = query.query.cursor;
    if (typeof cursorText === 'string') {
      context.cursor = decodeCursor(cursorText);
      // A cursor this mock never issued.
      if (!context.cursor) {
        const message = `cursor "${cursorText.slice(0, 64)}" was not issued by this mock; take it from a page's next or previous URL.`;
        return refuseRouted(
          context,
          fieldRefusal('badRequest', { field: 'query.cursor', rule: 'cursor', message }, context.problem),
        );
      }
    }
    return undefined;
  },
};
