/**
 * The client's types, derived from the generated `paths` of each version:
 *   - the version header is removed from every operation's parameters (the client sets it; the
 *     generated types keep a required header required even with a `default`);
 *   - every operation may answer an undeclared error (spec §7: errors not shown), so `error` is
 *     `unknown` rather than the `undefined` of a bodiless 401;
 *   - the default client's paths merge the three versions, each operation in the shape of its
 *     default version (generated/types/index.ts, DefaultPaths).
 */
import type { FetchResponse, MaybeOptionalInit, Middleware } from 'openapi-fetch';
import type { DefaultPaths, VersionPaths } from '../../generated/types/index.ts';
import type { ApiVersion, VERSION_HEADER } from '../contract/index.ts';
import type { RequestExtras } from './retry.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type VersionHeader = typeof VERSION_HEADER;

type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

/** A response of any undeclared status, body unknown. */
interface UndeclaredResponse {
  headers: { [name: string]: unknown };
  content: { 'application/json': unknown };
}

type OtherHeaders<P> = P extends { header: infer H } ? Omit<H, VersionHeader> : never;

/** The operation's parameters without the version header. */
export type ClientParameters<P> = { [K in keyof P as K extends 'header' ? never : K]: P[K] } & ([
  keyof OtherHeaders<P>,
] extends [never]
  ? { header?: never }
  : [RequiredKeys<OtherHeaders<P>>] extends [never]
    ? { header?: OtherHeaders<P> }
    : { header: OtherHeaders<P> });

/** One operation as the client exposes it. */
export type ClientOperation<Op> = Op extends { parameters: infer P; responses: infer R }
  ? { [K in keyof Op as K extends 'parameters' | 'responses' ? never : K]: Op[K] } & {
      parameters: ClientParameters<P>;
      responses: R & { default: UndeclaredResponse };
    }
  : Op;

/** A `paths` type as the client exposes it: only the methods each path has, relaxed. */
export type ClientPaths<Paths> = {
  [Path in keyof Paths]: {
    [M in keyof Paths[Path] as M extends HttpMethod
      ? [Paths[Path][M]] extends [undefined]
        ? never
        : M
      : never]: ClientOperation<Paths[Path][M]>;
  };
};

/** The paths of the default client: every operation, each at its default version. */
export type AdminPaths = ClientPaths<DefaultPaths>;
/** The paths of one API version. */
export type AdminVersionPaths<V extends ApiVersion> = ClientPaths<VersionPaths[V]>;

/** The paths among `Paths` that have `Method`. */
export type PathsWithMethod<Paths, Method extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in Method]: unknown } ? P : never;
}[keyof Paths];

/** The init argument of a call: required when the operation has required parameters or body. */
export type InitParam<Init> = [RequiredKeys<Init>] extends [never]
  ? [(Init & { [key: string]: unknown })?]
  : [Init & { [key: string]: unknown }];

type OperationInit<Paths, Path, Method extends HttpMethod> = Path extends keyof Paths
  ? Method extends keyof Paths[Path]
    ? MaybeOptionalInit<Paths[Path], Method> & RequestExtras
    : never
  : never;

type OperationOf<Paths, Path, Method extends HttpMethod> = Path extends keyof Paths
  ? Method extends keyof Paths[Path]
    ? Paths[Path][Method] & Record<string | number, unknown>
    : never
  : never;

/** `client.GET(path, init)`, `client.POST(…)`…: openapi-fetch's call, plus `retry` and `timeout`. */
export type AdminMethod<Paths, Method extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, Method>,
  Init extends OperationInit<Paths, Path, Method>,
>(
  path: Path,
  ...init: InitParam<Init>
) => Promise<FetchResponse<OperationOf<Paths, Path, Method>, Init, 'application/json'>>;

/** The data of a 2xx response of `method path`. */
export type ResponseData<Paths, Path, Method extends HttpMethod = 'get'> = Exclude<
  FetchResponse<OperationOf<Paths, Path, Method>, Record<never, never>, 'application/json'>['data'],
  undefined
>;

/** A typed client over `Paths` (the default client's or one version's). */
export interface AdminClient<Paths> {
  GET: AdminMethod<Paths, 'get'>;
  PUT: AdminMethod<Paths, 'put'>;
  POST: AdminMethod<Paths, 'post'>;
  DELETE: AdminMethod<Paths, 'delete'>;
  PATCH: AdminMethod<Paths, 'patch'>;
  /** A client over the operations of one API version only, with that version's shapes. */
  withVersion<V extends ApiVersion>(version: V): AdminClient<AdminVersionPaths<V>>;
  /** Adds openapi-fetch middleware (run after the client's own: auth and version are set). */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use`. */
  eject(...middleware: Middleware[]): void;
}
