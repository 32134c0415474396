/**
 * The client's types, read straight from the generated `paths` of each version (no openapi-fetch
 * helper types: those are deep mapped types, `Readable`/`Writable`, that made one `paginate` call
 * cost about a million type instantiations; the generated types carry no read/write markers, so the
 * plain types are the same values). Per operation:
 *   - `params` is the operation's parameters without the version header (the client sets it; the
 *     generated types keep a required header required even with a `default`);
 *   - `body` is its JSON request body, required when the spec requires it;
 *   - `data` is the JSON body of its 2xx responses; `error` is `unknown`, as every operation may
 *     answer an undeclared error (spec §7: errors not shown).
 * The default client's paths merge the three versions, each operation in the shape of its default
 * version (generated/types/index.ts, DefaultPaths).
 */
import type { HeadersOptions, Middleware } from 'openapi-fetch';
import type { DefaultPaths, VersionPaths } from '../../generated/types/index.ts';
import type { ApiVersion, VERSION_HEADER } from '../contract/index.ts';
import type { RequestExtras } from './retry.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths of the default client: every operation, each at its default version. */
export type AdminPaths = DefaultPaths;
/** The paths of one API version. */
export type AdminVersionPaths<V extends ApiVersion> = VersionPaths[V];

/** The paths among `Paths` that have `Method` (a method the spec does not define is `?: never`). */
export type PathsWithMethod<Paths, Method extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in Method]: object } ? P : never;
}[keyof Paths];

/** The operation `Method Path` of `Paths`. */
export type OperationOf<Paths, Path, Method extends HttpMethod> = Path extends keyof Paths
  ? Paths[Path] extends { [K in Method]: infer Op }
    ? Op
    : never
  : never;

type Empty = Record<never, never>;
type OtherHeaders<H> = { [K in keyof H as K extends typeof VERSION_HEADER ? never : K]: H[K] };
type HeaderPart<P> = P extends { header: infer H }
  ? [keyof OtherHeaders<H>] extends [never]
    ? { header?: never }
    : { header?: OtherHeaders<H> }
  : { header?: never };
/** The parameters of an operation as the client takes them: the version header is the client's. */
export type ParamsOf<Op> = Op extends { parameters: infer P }
  ? { [K in keyof P as K extends 'header' | 'cookie' ? never : K]: P[K] } & HeaderPart<P>
  : Empty;
type ParamsPart<Op> = Empty extends ParamsOf<Op> ? { params?: ParamsOf<Op> } : { params: ParamsOf<Op> };
type JsonBody<B> = B extends { content: { 'application/json': infer T } } ? T : never;
type BodyPart<Op> = Op extends { requestBody?: never }
  ? { body?: never }
  : Op extends { requestBody: infer B }
    ? { body: JsonBody<B> }
    : Op extends { requestBody?: infer B }
      ? { body?: JsonBody<NonNullable<B>> }
      : { body?: never };

/** Options of any call, next to its `params` and `body`. */
export interface CallOptions extends RequestExtras {
  /** Headers of this call (`Authorization` and the version header stay the client's). */
  headers?: HeadersOptions;
  /** Aborts the call, retries and waits included. */
  signal?: AbortSignal | null;
  /** openapi-fetch middleware for this call only (after the client's `use`). */
  middleware?: Middleware[];
}

/** The second argument of `Method Path`: `params`, `body` and the call options. */
export type InitOf<Op> = ParamsPart<Op> & BodyPart<Op> & CallOptions;

/** The init argument: required when the operation has required parameters or a required body. */
export type InitArgs<Op, Extra = unknown> = [Op] extends [never]
  ? [init?: unknown] // an unknown path: its error is the path's, not a missing argument
  : Empty extends ParamsPart<Op> & BodyPart<Op>
    ? [init?: InitOf<Op> & Extra]
    : [init: InitOf<Op> & Extra];

/**
 * `Path` when it is one of `Valid`, else `Valid`: the path argument's type. The path is inferred
 * as written (a type parameter constrained to `Valid` would fall back to all of `Valid` for an
 * unknown path, and the error would then be about the init argument).
 */
export type KnownPath<Path, Valid> = Path extends Valid ? Path : Valid;

type OkStatus = 200 | 201 | 202 | 203 | 204 | 206 | 207 | '2XX';
type JsonContent<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
/**
 * A page envelope with a plain `results` array: the generated page types are intersections
 * (`PageEnvelope & { results: Subscription[] | null }`), whose `results` is an intersection of
 * arrays that iterates as `unknown`.
 */
type Page<D> = {
  [K in keyof D]: K extends 'results'
    ? NonNullable<D[K]> extends readonly unknown[]
      ? NonNullable<D[K]>[number][] | Extract<D[K], null>
      : D[K]
    : D[K];
};
type Pages<D> = D extends object ? ('results' extends keyof D ? Page<D> : D) : D;
/** The JSON body of the 2xx responses of an operation (`undefined` for a body-less one). */
export type DataOf<Op> = Op extends { responses: infer R } ? Pages<JsonContent<R[keyof R & OkStatus]>> : never;

/** The result of a call, as openapi-fetch returns it: `data` for a 2xx response, else `error`. */
export type Result<Data> =
  | { data: Data; error?: never; response: Response }
  | { data?: never; error: unknown; response: Response };

/** The data of a 2xx response of `method path`. */
export type ResponseData<Paths, Path, Method extends HttpMethod = 'get'> = DataOf<OperationOf<Paths, Path, Method>>;

/** `client.GET(path, init)`, `client.POST(…)`…: openapi-fetch's call, plus `retry` and `timeout`. */
export type AdminMethod<Paths, Method extends HttpMethod> = <Path extends string>(
  path: KnownPath<Path, PathsWithMethod<Paths, Method>>,
  ...init: InitArgs<OperationOf<Paths, Path, Method>>
) => Promise<Result<DataOf<OperationOf<Paths, Path, Method>>>>;

/** A typed client over `Paths` (the default client's or one version's). */
export interface AdminClient<Paths> {
  GET: AdminMethod<Paths, 'get'>;
  PUT: AdminMethod<Paths, 'put'>;
  POST: AdminMethod<Paths, 'post'>;
  DELETE: AdminMethod<Paths, 'delete'>;
  PATCH: AdminMethod<Paths, 'patch'>;
  /** A client over the operations of one API version only, with that version's shapes. */
  withVersion<V extends ApiVersion>(version: V): AdminClient<AdminVersionPaths<V>>;
  /** Adds openapi-fetch middleware; it sees the final headers (token and version included). */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use`. */
  eject(...middleware: Middleware[]): void;
}
