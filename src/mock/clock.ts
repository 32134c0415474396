/** The engine's clock of write timestamps. */

/** The clock as the API writes time (ISO 8601, whole seconds), made once per second. */
export function secondsClock(now: () => Date): () => string {
  let second = Number.NaN;
  let text = '';
  return () => {
    const time = now().getTime();
    const current = Math.floor(time / 1000);
    if (current !== second) {
      second = current;
      text = new Date(current * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    return text;
  };
}
