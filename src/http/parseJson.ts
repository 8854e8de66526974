/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 16;

/** In `u` mode a surrogate pair is one code point: only a lone surrogate is in Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Decoded UTF-8 holds no lone surrogate (a bad sequence becomes U+FFFD): one can only come from a
 * `\uD800`-`\uDFFF` escape, so strings are checked one by one only when the text has such an escape.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

export type ParsedJson = { ok: true; value: unknown } | { ok: false; detail: string };

/**
 * Objects and arrays in `value` nest at most `depth` deep, and no string in it (key or value)
 * holds a lone surrogate. Checked on the parsed value (V8's JSON.parse does not recurse, so any
 * nesting parses): it visits only values, not every byte.
 */
function wellFormed(value: unknown, depth: number, strings: boolean): 'ok' | 'deep' | 'surrogate' {
  if (typeof value === 'string') return strings && LONE_SURROGATE.test(value) ? 'surrogate' : 'ok';
  if (typeof value !== 'object' || value === null) return 'ok';
  if (depth === 0) return 'deep';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const r = wellFormed(value[i], depth - 1, strings);
      if (r !== 'ok') return r;
    }
    return 'ok';
  }
  for (const key in value) {
    if (strings && LONE_SURROGATE.test(key)) return 'surrogate';
    const r = wellFormed((value as Record<string, unknown>)[key], depth - 1, strings);
    if (r !== 'ok') return r;
  }
  return 'ok';
}

/** Parses a JSON request body, refusing nesting deeper than MAX_JSON_DEPTH and lone surrogates. */
export function parseJson(bytes: Buffer): ParsedJson {
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, detail: 'body: malformed JSON' };
  }
  const form = wellFormed(value, MAX_JSON_DEPTH, SURROGATE_ESCAPE.test(text));
  if (form === 'deep') return { ok: false, detail: `body: JSON nested deeper than ${MAX_JSON_DEPTH}` };
  // Identifiers are compared as exact code units: a lone surrogate is not text, and is refused.
  if (form === 'surrogate') return { ok: false, detail: 'body: a string holds a lone surrogate' };
  return { ok: true, value };
}
