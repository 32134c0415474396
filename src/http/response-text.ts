/**
 * A Fetch answer's text read within a byte bound, for clients of servers they do not trust (drift's
 * replay, the fuzzer): past the bound, or when Content-Length already says more, the rest is never
 * read. Browser-safe (no Buffer).
 */
import { bodyText } from './answer.ts';

/** An answer over the bound: `declared` when its Content-Length said so before anything was read. */
export interface Oversize {
  oversize: true;
  declared?: number;
}

export async function boundedText(response: Response, max: number): Promise<string | Oversize> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > max) {
    await response.body?.cancel();
    return { oversize: true, declared };
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel();
      return { oversize: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bodyText(bytes);
}
