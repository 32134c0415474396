/**
 * Stage body: for an operation with a JSON request body, the bytes are read (over the limit: 413),
 * then must be JSON (another content type, or a charset other than UTF-8: 415), UTF-8 (400) and
 * parse (400). Validation against the schema is the next stage's. A body sent to a write that
 * takes none is refused (415), as `--static` (Prism) and the real API do.
 */
import { fieldRefusal, refusal } from '../problems.ts';
import type { RawResponse, RequestContext, Stage } from './context.ts';
import { refuseRouted } from './respond.ts';
import { tooLarge } from './scenario.ts';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
/** Stateless between calls (no `stream` option), so one serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses the body of an operation that has one; a microtask only while bytes are still arriving. */
export const body: Stage = (context) => {
  if (!context.target.validator.hasBody)
    return context.method === 'GET' || context.method === 'HEAD' ? undefined : none(context);
  const bytes = context.raw.readBody();
  return bytes instanceof Promise ? bytes.then((read) => parseJson(context, read)) : parseJson(context, bytes);
};

/** An operation without a request body: bytes sent anyway are refused, whatever their type. */
function none(context: RequestContext): RawResponse | undefined | Promise<RawResponse | undefined> {
  const bytes = context.raw.readBody();
  return bytes instanceof Promise ? bytes.then((read) => refuseBody(context, read)) : refuseBody(context, bytes);
}

function refuseBody(context: RequestContext, bytes: Uint8Array | 'too-large'): RawResponse | undefined {
  if (bytes !== 'too-large' && bytes.length === 0) return undefined;
  // A body the operation does not take: not guessed away (the real API answers 415 too).
  const message = `${context.problem.operation} takes no request body; send none (no Content-Type, no bytes).`;
  const violation = {
    field: 'header.Content-Type',
    rule: 'content-type',
    message,
    location: ['header', 'Content-Type'],
  };
  return refuseRouted(
    context,
    refusal('unsupportedMediaType', `header.Content-Type: ${message}`, [violation], context.problem),
  );
}

function parseJson(context: RequestContext, bytes: Uint8Array | 'too-large'): RawResponse | undefined {
  // Larger than the limit once read (no or a wrong Content-Length).
  if (bytes === 'too-large') return tooLarge(context);
  if (bytes.length === 0) return undefined;
  const contentType = context.raw.header('content-type');
  if (contentType !== undefined && !JSON_TYPE.test(contentType)) {
    // Not JSON: the API speaks only JSON.
    const message = `Unsupported content type "${contentType}"; send Content-Type: application/json.`;
    const violation = {
      field: 'header.Content-Type',
      rule: 'content-type',
      message,
      location: ['header', 'Content-Type'],
    };
    return refuseRouted(
      context,
      refusal('unsupportedMediaType', `header.Content-Type: ${message}`, [violation], context.problem),
    );
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    // JSON is UTF-8 (RFC 8259 §8.1): bytes declared in another charset would be misread.
    const message = `Unsupported charset "${charset}"; JSON bodies are UTF-8 (Content-Type: application/json; charset=utf-8).`;
    const violation = { field: 'header.Content-Type', rule: 'charset', message, location: ['header', 'Content-Type'] };
    return refuseRouted(
      context,
      refusal('unsupportedMediaType', `header.Content-Type: ${message}`, [violation], context.problem),
    );
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    // Bytes that are not UTF-8.
    return refuseRouted(
      context,
      fieldRefusal('malformedBody', 'body', 'utf-8', 'The request body is not valid UTF-8.', context.problem),
    );
  }
  try {
    context.body = JSON.parse(text);
  } catch (error) {
    // Text that is not JSON.
    const message = `Malformed JSON body: ${(error as Error).message}`;
    const violation = { field: 'body', rule: 'json', message, location: ['body'] };
    return refuseRouted(
      context,
      refusal('malformedJson', 'The request body is not valid JSON.', [violation], context.problem),
    );
  }
  return undefined;
}
