/** Reading a recording (`proxy --record FILE`) for `drift`: the file, checked enough to be used. */
import { readFile } from 'node:fs/promises';
import { RECORDING_FORMAT, type Recording } from '../proxy/index.ts';

/** A recording drift cannot use (unreadable, not JSON, not a recording): exit 3. */
export class RecordingError extends Error {
  override name = 'RecordingError';
}

export async function readRecording(file: string): Promise<Recording> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RecordingError(
      `${file}: cannot read the recording (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordingError(`${file}: not JSON (${(error as Error).message})`);
  }
  const meta = (value as Partial<Recording> | null)?.$recording;
  if (!meta || !Array.isArray(meta.exchanges)) {
    throw new RecordingError(
      `${file}: not a recording (no $recording.exchanges; record one with "proxy --record ${file}")`,
    );
  }
  if (meta.format !== RECORDING_FORMAT) {
    throw new RecordingError(
      `${file}: recording format ${String(meta.format)}, this version reads format ${RECORDING_FORMAT}`,
    );
  }
  for (const [index, exchange] of meta.exchanges.entries()) {
    const broken = brokenField(exchange);
    if (broken) throw new RecordingError(`${file}: $recording.exchanges[${index}]${broken}`);
  }
  return value as Recording;
}

/**
 * What is wrong with one recorded exchange (` .field must …`), or undefined: each field the proxy
 * writes, of its type; the target a path under the upstream's root (never a host or a port).
 */
function brokenField(exchange: unknown): string | undefined {
  if (!exchange || typeof exchange !== 'object' || Array.isArray(exchange)) return ' must be an object';
  const entry = exchange as Record<string, unknown>;
  for (const field of ['operation', 'version', 'method', 'target'] as const) {
    if (typeof entry[field] !== 'string') return `.${field} must be a string`;
  }
  const target = entry.target as string;
  if (!target.startsWith('/') || target.startsWith('//'))
    return `.target must be a path starting with one "/", got ${JSON.stringify(target.slice(0, 100))}`;
  const status = entry.status;
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
    return '.status must be an HTTP status (an integer from 100 to 599)';
  if (!('body' in entry)) return '.body is required';
  return undefined;
}
