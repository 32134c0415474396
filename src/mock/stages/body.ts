/**
 * Stage body: a declared Content-Length over the body limit is refused (413) before anything is
 * read; for an operation with a JSON request body, the bytes are read (over the limit: 413),
 * then must be JSON (another content type, or a charset other than UTF-8: 415), UTF-8 (400) and
 * parse (400). Validation against the schema is the next stage's. A body sent to a write that
 * takes none is refused (415), as `--static` (Prism) and the real API do.
 */
import {
  bodyTooLarge,
  fieldRefusal,
  isJsonMediaType,
  MAX_BODY_BYTES,
  malformedJson,
  unsupportedMediaType,
} from '../../http/index.ts';
import type { Incoming, Parsed, RawResponse, Routed, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';

type Reading = Incoming & Routed & Parsed;

const tooLarge = (context: Routed) => refuseRouted(context, bodyTooLarge(context.problem));

/** Stateless between calls (no `stream` option), so one serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses the body of an operation that has one; a microtask only while bytes are still arriving. */
export const body: Stage<Incoming & Routed, Parsed> = {
  name: 'body',
  run: (context) => {
    const length = context.raw.header('content-length');
    // Declared too large: refused before reading.
    if (length !== undefined && Number(length) > MAX_BODY_BYTES) return tooLarge(context);
    if (!context.target.validator.hasBody)
      return context.method === 'GET' || context.method === 'HEAD' ? undefined : none(context);
    const bytes = context.raw.readBody();
    return bytes instanceof Promise ? bytes.then((read) => parseJson(context, read)) : parseJson(context, bytes);
  },
};

/** An operation without a request body: bytes sent anyway are refused, whatever their type. */
function none(context: Reading): RawResponse | undefined | Promise<RawResponse | undefined> {
  const bytes = context.raw.readBody();
  return bytes instanceof Promise ? bytes.then((read) => refuseBody(context, read)) : refuseBody(context, bytes);
}

function refuseBody(context: Reading, bytes: Uint8Array | 'too-large'): RawResponse | undefined {
  if (bytes !== 'too-large' && bytes.length === 0) return undefined;
  // A body the operation does not take: not guessed away (the real API answers 415 too).
  const message = `${context.problem.operation} takes no request body; send none (no Content-Type, no bytes).`;
  return refuseRouted(context, unsupportedMediaType('content-type', message, context.problem));
}

function parseJson(context: Reading, bytes: Uint8Array | 'too-large'): RawResponse | undefined {
  // Larger than the limit once read (no or a wrong Content-Length).
  if (bytes === 'too-large') return tooLarge(context);
  if (bytes.length === 0) return undefined;
  const contentType = context.raw.header('content-type');
  if (contentType !== undefined && !isJsonMediaType(contentType)) {
    // Not JSON: the API speaks only JSON.
    const message = `Unsupported content type "${contentType}"; send Content-Type: application/json.`;
    return refuseRouted(context, unsupportedMediaType('content-type', message, context.problem));
  }
  // Parameters follow a `;`: a plain `application/json` skips the look for a charset.
  const charset = contentType?.includes(';')
    ? /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1]?.toLowerCase()
    : undefined;
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    // JSON is UTF-8 (RFC 8259 §8.1): bytes declared in another charset would be misread.
    const message = `Unsupported charset "${charset}"; JSON bodies are UTF-8 (Content-Type: application/json; charset=utf-8).`;
    return refuseRouted(context, unsupportedMediaType('charset', message, context.problem));
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    // Bytes that are not UTF-8.
    return refuseRouted(
      context,
      fieldRefusal(
        'malformedBody',
        { field: 'body', rule: 'utf-8', message: 'The request body is not valid UTF-8.' },
        context.problem,
      ),
    );
  }
  try {
    context.body = JSON.parse(text);
  } catch (error) {
    // Text that is not JSON.
    return refuseRouted(context, malformedJson(error as Error, context.problem));
  }
  return undefined;
}
