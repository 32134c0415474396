/**
 * A token's short id for the inspector and the request log: 12 hex characters of two FNV-1a hashes
 * (browser-safe and synchronous; not a secret-keeping hash, only a way not to show tokens whole).
 */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x5bd1e995) >>> 0;
  }
  return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).slice(0, 12);
}

/**
 * A token as the inspector shows it: its first and last characters, never more than a third of
 * it (`docs…01de` for a 29-character token, `i…d` for `inspected`, `…` under 6 characters);
 * `shared` for the shared state.
 */
export function tokenHint(token: string): string {
  if (token === '') return 'shared';
  const ends = Math.min(4, Math.floor(token.length / 6));
  return ends === 0 ? '…' : `${token.slice(0, ends)}…${token.slice(-ends)}`;
}
