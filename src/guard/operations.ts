/**
 * Compares two bundled OpenAPI documents of one API version operation by operation: operations,
 * security scopes, parameters, request bodies and responses. Schemas are handed to schema.ts with
 * the direction they travel in (parameters and bodies: request; responses: response).
 */
import { HTTP_METHODS } from '../contract/index.ts';
import { type Change, type Json, type Severity, widened } from './model.ts';
import { deref } from './resolve.ts';
import { compareSchemas, type SchemaContext } from './schema.ts';

interface Operation {
  key: string;
  label: string;
  path: string;
  method: string;
  operation: Json;
  parameters: Json[];
  security: Json[];
}

/** Operations keyed by method + path template (parameter names ignored: `/a/{id}/` = `/a/{x}/`). */
export function operationsOf(doc: Json): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, rawItem] of Object.entries<Json>(doc.paths ?? {})) {
    const item = deref(doc, rawItem).node ?? {};
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
      const own: Json[] = (operation.parameters ?? []).map((p: Json) => deref(doc, p).node);
      const inherited: Json[] = (item.parameters ?? []).map((p: Json) => deref(doc, p).node);
      // Operation-level parameters override path-level ones with the same name and location.
      const parameters = [...inherited.filter((p) => !own.some((o) => o.in === p.in && o.name === p.name)), ...own];
      out.set(key, {
        key,
        label: `${method.toUpperCase()} ${path}`,
        path,
        method,
        operation,
        parameters,
        security: operation.security ?? doc.security ?? [],
      });
    }
  }
  return out;
}

/** Notes changes to `operation` in `changes`: `at(changes, label)(location, rule, severity, message)`. */
const at =
  (changes: Change[], operation: string) =>
  (location: string, rule: string, severity: Severity, message: string): void => {
    changes.push({ operation, location, rule, severity, message });
  };

/** A security requirement as `scheme(scope+scope)`; `[]` of them means "no authentication". */
const requirementText = (req: Json): string =>
  Object.entries<string[]>(req)
    .map(([scheme, scopes]) => `${scheme}(${[...scopes].sort().join(' + ')})`)
    .sort()
    .join(' and ') || 'anonymous';

/** Does a token meeting requirement `have` meet requirement `need`? */
const satisfies = (have: Json, need: Json): boolean =>
  Object.entries<string[]>(need).every(
    ([scheme, scopes]) => have[scheme] && scopes.every((s) => have[scheme].includes(s)),
  );

function compareSecurity(changes: Change[], label: string, base: Json[], head: Json[]): void {
  if (head.length === 0) {
    if (base.length > 0)
      at(changes, label)('security', 'security-removed', 'info', 'no longer requires authentication');
    return;
  }
  if (base.length === 0) {
    at(changes, label)(
      'security',
      'security-added',
      'breaking',
      `now requires ${head.map(requirementText).join(' or ')}`,
    );
    return;
  }
  // Each alternative a client may hold today must still be enough.
  for (const old of base) {
    if (!head.some((req) => satisfies(old, req))) {
      const message = `a token with ${requirementText(old)} is no longer enough (now ${head.map(requirementText).join(' or ')})`;
      at(changes, label)('security', 'scopes-changed', 'breaking', message);
    }
  }
  for (const req of head) {
    if (!base.some((old) => requirementText(old) === requirementText(req)) && base.some((old) => satisfies(old, req))) {
      at(changes, label)('security', 'scopes-added', 'info', `also accepts ${requirementText(req)}`);
    }
  }
}

const DEFAULT_STYLE: Record<string, string> = { query: 'form', cookie: 'form', path: 'simple', header: 'simple' };

function parameterKey(op: Operation, p: Json): string {
  // Path parameters are matched by position in the template (a rename does not change the URL).
  if (p.in === 'path') {
    const names = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    const index = names.indexOf(p.name);
    if (index >= 0) return `path#${index}`;
  }
  return `${p.in}:${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`;
}

const parameterSchema = (p: Json): Json => p.schema ?? (Object.values<Json>(p.content ?? {})[0]?.schema || {});

function compareParameters(ctx: SchemaContext, b: Operation, h: Operation): void {
  const changes = ctx.changes;
  const before = new Map(b.parameters.map((p) => [parameterKey(b, p), p]));
  const after = new Map(h.parameters.map((p) => [parameterKey(h, p), p]));
  for (const [key, p] of before) {
    if (!after.has(key))
      at(changes, h.label)(`${p.in} ${p.name}`, 'parameter-removed', 'breaking', 'parameter removed');
  }
  for (const [key, p] of after) {
    const loc = `${p.in} ${p.name}`;
    const old = before.get(key);
    if (!old) {
      if (p.required) at(changes, h.label)(loc, 'required-parameter-added', 'breaking', 'new required parameter');
      else at(changes, h.label)(loc, 'parameter-added', 'info', 'new optional parameter');
      continue;
    }
    if (!old.required && p.required) at(changes, h.label)(loc, 'parameter-now-required', 'breaking', 'now required');
    if (old.required && !p.required) at(changes, h.label)(loc, 'parameter-now-optional', 'info', 'now optional');
    const style = (x: Json) =>
      `${x.style ?? DEFAULT_STYLE[x.in]}/${x.explode ?? (x.style ?? DEFAULT_STYLE[x.in]) === 'form'}`;
    if (style(old) !== style(p)) {
      at(changes, h.label)(
        loc,
        'parameter-style-changed',
        'breaking',
        `serialization changed from ${style(old)} to ${style(p)} (style/explode)`,
      );
    }
    compareSchemas(ctx, loc, parameterSchema(old), parameterSchema(p));
  }
}

function compareRequestBody(ctx: SchemaContext, b: Operation, h: Operation): void {
  const changes = ctx.changes;
  const old = deref(ctx.base, b.operation.requestBody).node;
  const now = deref(ctx.head, h.operation.requestBody).node;
  if (!old && !now) return;
  if (!old) {
    if (now.required)
      at(changes, h.label)('request body', 'request-body-added', 'breaking', 'new required request body');
    else at(changes, h.label)('request body', 'request-body-added', 'info', 'new optional request body');
    return;
  }
  if (!now) {
    at(changes, h.label)(
      'request body',
      'request-body-removed',
      'warning',
      'request body removed (the server may reject it)',
    );
    return;
  }
  if (!old.required && now.required)
    at(changes, h.label)('request body', 'request-body-now-required', 'breaking', 'request body now required');
  if (old.required && !now.required)
    at(changes, h.label)('request body', 'request-body-now-optional', 'info', 'request body now optional');
  for (const [type, media] of Object.entries<Json>(old.content ?? {})) {
    const next = now.content?.[type];
    if (!next) at(changes, h.label)('request body', 'media-type-removed', 'breaking', `no longer accepts ${type}`);
    else compareSchemas({ ...ctx, direction: 'request' }, 'request body', media.schema ?? {}, next.schema ?? {});
  }
  for (const type of Object.keys(now.content ?? {})) {
    if (!old.content?.[type]) at(changes, h.label)('request body', 'media-type-added', 'info', `also accepts ${type}`);
  }
}

const isSuccess = (code: string) => /^2/.test(code);

function compareResponses(ctx: SchemaContext, b: Operation, h: Operation): void {
  const changes = ctx.changes;
  const before: Json = b.operation.responses ?? {};
  const after: Json = h.operation.responses ?? {};
  for (const code of Object.keys(before)) {
    if (after[code] !== undefined) continue;
    const severity: Severity = isSuccess(code) ? 'breaking' : 'info';
    at(changes, h.label)(`response ${code}`, 'response-removed', severity, `response ${code} removed`);
  }
  for (const code of Object.keys(after)) {
    const loc = `response ${code}`;
    if (before[code] === undefined) {
      const severity: Severity = isSuccess(code) ? widened('response') : 'info';
      at(changes, h.label)(loc, 'response-added', severity, `response ${code} added`);
      continue;
    }
    const old = deref(ctx.base, before[code]).node ?? {};
    const now = deref(ctx.head, after[code]).node ?? {};
    for (const name of Object.keys(old.headers ?? {})) {
      const present = Object.keys(now.headers ?? {}).some((n) => n.toLowerCase() === name.toLowerCase());
      if (!present)
        at(changes, h.label)(`${loc} header ${name}`, 'response-header-removed', 'breaking', 'response header removed');
    }
    for (const [type, media] of Object.entries<Json>(old.content ?? {})) {
      const next = now.content?.[type];
      if (!next) at(changes, h.label)(`${loc} body`, 'media-type-removed', 'breaking', `no longer returns ${type}`);
      else compareSchemas({ ...ctx, direction: 'response' }, `${loc} body`, media.schema ?? {}, next.schema ?? {});
    }
    for (const type of Object.keys(now.content ?? {})) {
      if (!old.content?.[type])
        at(changes, h.label)(`${loc} body`, 'media-type-added', 'info', `may also return ${type}`);
    }
  }
}

/** Every change from `base` to `head`, two bundled documents of the same API version. */
export function compareDocuments(base: Json, head: Json): Change[] {
  const changes: Change[] = [];
  const before = operationsOf(base);
  const after = operationsOf(head);
  for (const [key, op] of before) {
    if (!after.has(key)) at(changes, op.label)('', 'operation-removed', 'breaking', 'operation removed');
  }
  for (const [key, h] of after) {
    const b = before.get(key);
    if (!b) {
      at(changes, h.label)('', 'operation-added', 'info', 'new operation');
      continue;
    }
    if (b.operation.operationId !== h.operation.operationId) {
      const message = `operationId changed from ${b.operation.operationId} to ${h.operation.operationId} (generated clients rename the method)`;
      at(changes, h.label)('', 'operation-id-changed', 'warning', message);
    }
    if (!b.operation.deprecated && h.operation.deprecated)
      at(changes, h.label)('', 'operation-deprecated', 'info', 'deprecated');
    compareSecurity(changes, h.label, b.security, h.security);
    // Request-side schemas (parameters, body) are relative to the operation: locations name them.
    const ctx: SchemaContext = { base, head, operation: h.label, direction: 'request', changes };
    compareParameters(ctx, b, h);
    compareRequestBody(ctx, b, h);
    compareResponses(ctx, b, h);
  }
  return changes;
}
