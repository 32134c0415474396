/** The engine behind the Fetch API (MSW, tests, a browser): a `Request` in, a `Response` out. */
import { MAX_BODY_BYTES } from '../http/index.ts';
import type { RawRequest, RawResponse } from './stages/context.ts';

/** A Fetch request through `handleRaw`, the API mounted under `basePath` (kept in page links). */
export async function handleFetch(
  handleRaw: (raw: RawRequest) => RawResponse | Promise<RawResponse>,
  request: Request,
  basePath = '',
): Promise<Response> {
  const url = new URL(request.url);
  const base = basePath.replace(/\/+$/, '');
  const pathname = base && url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : url.pathname;
  const raw = await handleRaw({
    method: request.method,
    target: `${pathname}${url.search}`,
    origin: `${url.origin}${pathname === url.pathname ? '' : base}`,
    header: (name) => request.headers.get(name) ?? undefined,
    readBody: async () => {
      if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return 'too-large';
      const bytes = new Uint8Array(await request.arrayBuffer());
      return bytes.length > MAX_BODY_BYTES ? 'too-large' : bytes;
    },
  });
  if (raw.drop) return Response.error();
  // A read's bytes may be the engine's cached ones: a Response copies what it is given.
  const body = raw.body.length === 0 ? null : (raw.body as string | Uint8Array<ArrayBuffer>);
  return new Response(body, { status: raw.status, headers: raw.headers });
}
