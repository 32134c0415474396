/**
 * Typed per-test overrides of one operation's answer: the resolver's path parameters, query and body
 * are typed from the generated types (each operation at its default version), and so is its return
 * value: a plain object is sent as the operation's 200 JSON, a `Response` as it is. Everything an
 * override does not match falls through to the mock engine.
 *
 *   override('get', '/tickets/{id}/', ({ params }) => ({ ...ticket, id: params.id, status: 'closed' }))
 */
import type { DefaultPaths } from '../../generated/types/index.ts';
import {
  type Bundle,
  deref,
  type Json,
  pathParameterNames,
  templateToRegExp,
  VERSION_HEADER,
  versionOf,
} from '../contract/index.ts';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths of the API that have `M`. */
export type PathsWith<M extends Method> = {
  [P in keyof DefaultPaths]: M extends keyof DefaultPaths[P] ? P : never;
}[keyof DefaultPaths];

type Operation<P extends keyof DefaultPaths, M extends Method> = M extends keyof DefaultPaths[P]
  ? DefaultPaths[P][M]
  : never;

type Defined<T> = Exclude<T, undefined>;
type None = Record<never, never>;
type PathOf<O> = O extends { parameters: { path?: infer X } }
  ? [Defined<X>] extends [never]
    ? None
    : Defined<X>
  : None;
type QueryOf<O> = O extends { parameters: { query?: infer Q } }
  ? [Defined<Q>] extends [never]
    ? None
    : Defined<Q>
  : None;
type BodyOf<O> = O extends { requestBody?: infer B }
  ? Defined<B> extends { content: { 'application/json': infer J } }
    ? J
    : undefined
  : undefined;

/** The JSON body of the operation's 2xx answer. */
export type SuccessOf<O> = O extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 202 | '200' | '201' | '202'
        ? R[S] extends { content: { 'application/json': infer J } }
          ? J
          : never
        : never;
    }[keyof R]
  : never;

export interface OverrideArgs<O> {
  /** Path parameters, integers as numbers (as the contract types them). */
  params: PathOf<O>;
  /** Query parameters present in the URL, typed by the contract (arrays for array filters). */
  query: Partial<QueryOf<O>>;
  /** The parsed JSON body (writes). */
  body: BodyOf<O>;
  request: Request;
  /** The engine's answer, for an override that only adjusts it. */
  next(): Promise<Response>;
}

export type OverrideResolver<O> = (args: OverrideArgs<O>) => SuccessOf<O> | Response | Promise<SuccessOf<O> | Response>;

export interface Override {
  readonly method: Method;
  readonly path: string;
  readonly resolver: OverrideResolver<never>;
}

/** Replaces the answer of `method path` (any version) with `resolver`'s. */
export function override<M extends Method, P extends PathsWith<M>>(
  method: M,
  path: P,
  resolver: OverrideResolver<Operation<P, M>>,
): Override {
  return { method, path, resolver: resolver as unknown as OverrideResolver<never> };
}

interface CompiledOverride {
  override: Override;
  pattern: RegExp;
  names: string[];
  /** `<in>.<name>` → JSON Schema of the parameter, from the bundle of the operation's default version. */
  schemas: Map<string, Json>;
  document: Json;
}

const coerce = (value: string, schema: Json): unknown => {
  const type = [schema?.type].flat();
  if (type.includes('integer') || type.includes('number')) return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (type.includes('boolean')) return value === 'true' ? true : value === 'false' ? false : value;
  return value;
};

const NOT_JSON = Symbol('not JSON');
const parseBody = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return NOT_JSON;
  }
};

/** Matches a request against the overrides; the chosen one's answer, or `undefined` to fall through. */
export function compileOverrides(overrides: readonly Override[], bundles: readonly Bundle[], base: URL) {
  const compiled: CompiledOverride[] = overrides.map((entry) => {
    const version = versionOf(entry.method, entry.path);
    const bundle = bundles.find((b) => b.version === version);
    const operation = bundle?.operations.find((o) => o.method === entry.method && o.path === entry.path);
    if (!bundle || !operation)
      throw new Error(`override: ${entry.method.toUpperCase()} ${entry.path} is not in the bundles`);
    const schemas = new Map<string, Json>(
      operation.parameters.map((p: Json) => [`${p.in}.${p.name}`, deref(bundle.document, p.schema)]),
    );
    const names = pathParameterNames(entry.path);
    return { override: entry, pattern: templateToRegExp(entry.path, true), names, schemas, document: bundle.document };
  });
  const prefix = base.pathname.replace(/\/$/, '');

  return async (request: Request, next: () => Promise<Response>): Promise<Response | undefined> => {
    const url = new URL(request.url);
    if (url.origin !== base.origin || !url.pathname.startsWith(prefix)) return undefined;
    const pathname = url.pathname.slice(prefix.length);
    const method = request.method.toLowerCase();
    for (const { override: entry, pattern, names, schemas, document } of compiled) {
      if (entry.method !== method) continue;
      const match = pattern.exec(pathname);
      if (!match) continue;
      const params = Object.fromEntries(
        names.map((name, i) => [name, coerce(decodeURIComponent(match[i + 1] ?? ''), schemas.get(`path.${name}`))]),
      );
      const query: Record<string, unknown> = {};
      for (const key of new Set(url.searchParams.keys())) {
        const schema = schemas.get(`query.${key}`);
        const values = url.searchParams.getAll(key).flatMap((v) => (schema?.type === 'array' ? v.split(',') : [v]));
        query[key] =
          schema?.type === 'array'
            ? values.map((v) => coerce(v, deref(document, schema.items)))
            : coerce(values[0] ?? '', schema);
      }
      const text = ['get', 'delete'].includes(method) ? '' : await request.clone().text();
      const body = parseBody(text);
      // A body that is not JSON is the engine's to refuse (400 naming the body), not the override's.
      if (body === NOT_JSON) return next();
      const result = await entry.resolver({ params, query, body, request, next } as never);
      if (result instanceof Response) return result;
      return new Response(JSON.stringify(result), {
        status: 200,
        headers: {
          'Content-Type': 'application/json',
          [VERSION_HEADER]: request.headers.get(VERSION_HEADER) ?? versionOf(method, entry.path),
        },
      });
    }
    return undefined;
  };
}
