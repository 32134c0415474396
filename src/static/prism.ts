/**
 * The Prism side of the mock: one in-process Prism instance per version bundle
 * (@stoplight/prism-http, the engine of prism-cli), and per operation the target the router picks.
 */
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig, type IHttpRequest } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import {
  type Bundle,
  deref,
  type Json,
  listExamples,
  pathParameterNames,
  templateToRegExp,
  VERSION_HEADER,
} from '../contract/index.ts';
import type { Violation } from '../http/index.ts';

export interface Target {
  version: string;
  operationId: string;
  prismOperation: IHttpOperation;
  prism: ReturnType<typeof createInstance>;
  /** Example names by status code. */
  examples: Record<string, string[]>;
  /** Checks integer path parameters strictly (see {@link strictPathCheck}). */
  checkPath: (pathname: string) => Violation[];
}

/**
 * Integer path parameters must be written as integers. Prism coerces the path segment with ajv,
 * which takes `1e3` or `0x10` for integers; a real server's integer route does not.
 */
function strictPathCheck(template: string, parameters: Json[], document: Json): (pathname: string) => Violation[] {
  const names = pathParameterNames(template);
  const integers = new Set(
    parameters
      .filter((p) => p?.in === 'path' && [deref(document, p.schema)?.type].flat().includes('integer'))
      .map((p) => String(p.name)),
  );
  if (!names.some((n) => integers.has(n))) return () => [];
  const pattern = templateToRegExp(template, true);
  return (pathname) => {
    const values = pattern.exec(pathname)?.slice(1) ?? [];
    return names.flatMap((name, index) => {
      const value = decodeURIComponent(values[index] ?? '');
      if (!integers.has(name) || /^-?\d+$/.test(value)) return [];
      const message = `Request path parameter ${name} must be integer`;
      return [{ field: `path.${name}`, rule: 'type', message, location: ['path', name] }];
    });
  };
}

const noop = () => {};
/** Prism wants a pino logger; the mock logs one line per request itself, so Prism's log is muted. */
const silentLogger: Json = {
  level: 'silent',
  trace: noop,
  debug: noop,
  info: noop,
  success: noop,
  warn: noop,
  error: noop,
  fatal: noop,
  child: () => silentLogger,
};

/** Dynamic mode: no random extra properties on open objects (prism-cli's `--json-schema-faker-fillProperties=false`). */
export function configureGenerator(): void {
  const requireFromPrism = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
  const { JSONSchemaFaker } = requireFromPrism('json-schema-faker') as {
    JSONSchemaFaker: { option(options: Record<string, unknown>): void };
  };
  JSONSchemaFaker.option({ fillProperties: false });
}

/** The Prism target of every operation of every bundle, for the router. */
export async function prismTargets(bundles: Bundle[], validateResponses: boolean) {
  const baseConfig: IHttpConfig = {
    checkSecurity: true,
    validateRequest: true,
    validateResponse: validateResponses,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    mock: { dynamic: false },
  };
  const listing = listExamples(bundles);
  const entries = await Promise.all(
    bundles.map(async (bundle) => {
      // Prism dereferences in place: give it its own copy.
      const operations = await getHttpOperationsFromSpec(structuredClone(bundle.document));
      const prism = createInstance(baseConfig, { logger: silentLogger });
      return bundle.operations.map((operation) => {
        const prismOperation = operations.find(
          (candidate) => candidate.method === operation.method && candidate.path === operation.path,
        );
        if (!prismOperation) throw new Error(`Prism did not load ${operation.method} ${operation.path}`);
        const examples =
          listing.find((l) => l.version === operation.version && l.operationId === operation.operationId)?.examples ??
          {};
        const target: Target = {
          version: operation.version,
          operationId: operation.operationId,
          prismOperation,
          prism,
          examples,
          checkPath: strictPathCheck(operation.path, operation.parameters, bundle.document),
        };
        return { method: operation.method, path: operation.path, version: operation.version, target };
      });
    }),
  );
  return { baseConfig, entries: entries.flat() };
}

/** Header names as documented, by lower-case name, so that error fields name them readably. */
export function headerNamesOf(bundles: Bundle[]): Map<string, string> {
  const names = new Map<string, string>([
    ['authorization', 'Authorization'],
    ['prefer', 'Prefer'],
    ['content-type', 'Content-Type'],
  ]);
  for (const { operations } of bundles) {
    for (const { parameters } of operations) {
      for (const parameter of parameters) {
        if (parameter?.in === 'header') names.set(String(parameter.name).toLowerCase(), parameter.name);
      }
    }
  }
  return names;
}

/** The error Prism returns for a request it cannot answer (its generated problem). */
/** A violation as Prism reports it (request validation diagnostics or its generated 422). */
export interface PrismViolation {
  location?: (string | number)[];
  path?: (string | number)[];
  code?: string | number;
  message: string;
}

export type PrismError = Error & { status?: number; detail?: string; additional?: { validation?: PrismViolation[] } };

/**
 * A request as Prism reads it: the path, the query (a name given twice: a list), the headers (each
 * one string), the body read. A request without the version header is served as the default
 * version: Prism sees it as sent.
 */
export function prismInput(
  request: IncomingMessage,
  url: { pathname: string; searchParams: URLSearchParams },
  version: string,
  body: unknown,
): IHttpRequest {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  headers[VERSION_HEADER.toLowerCase()] = version;
  const method = (request.method ?? 'GET').toLowerCase() as IHttpRequest['method'];
  return { method, url: { path: url.pathname, query }, headers, body };
}
