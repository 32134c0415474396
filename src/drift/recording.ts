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
  return value as Recording;
}
