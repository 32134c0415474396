/**
 * Parses the `Prefer` request header (RFC 7240) into the mock preferences Prism understands:
 * `Prefer: code=401`, `Prefer: example=eur`, `Prefer: dynamic=true, seed=abc` (comma- or
 * semicolon-separated, values optionally quoted).
 */

export interface MockPreferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: string;
}

export type PreferResult = { ok: true; preferences: MockPreferences } | { ok: false; message: string };

export function parsePrefer(header: string | undefined): PreferResult {
  const preferences: MockPreferences = {};
  if (!header) return { ok: true, preferences };
  for (const part of header.split(/[,;]/)) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const equals = trimmed.indexOf('=');
    const key = (equals === -1 ? trimmed : trimmed.slice(0, equals)).trim().toLowerCase();
    const value =
      equals === -1
        ? ''
        : trimmed
            .slice(equals + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    switch (key) {
      case 'code':
        if (!/^[1-5]\d\d$/.test(value))
          return { ok: false, message: `code must be an HTTP status code, got "${value}"` };
        preferences.code = Number(value);
        break;
      case 'example':
        if (!value) return { ok: false, message: 'example needs a name, e.g. example=default' };
        preferences.example = value;
        break;
      case 'dynamic':
        if (value !== 'true' && value !== 'false')
          return { ok: false, message: `dynamic must be true or false, got "${value}"` };
        preferences.dynamic = value === 'true';
        break;
      case 'seed':
        if (!value) return { ok: false, message: 'seed needs a value' };
        preferences.seed = value;
        break;
      default:
        // Other preferences (return=minimal, respond-async...) are not the mock's: ignored, per RFC 7240.
        break;
    }
  }
  return { ok: true, preferences };
}
