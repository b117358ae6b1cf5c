/**
 * Parsing JSON without trusting its shape: the nesting depth is measured by a linear scan before
 * `JSON.parse` sees the text, so a 100k-deep array costs one bounded pass instead of a stack overflow
 * (threat model W9). Used for hook payloads (after a capped read, hooks/read-capped.ts) and transcript lines.
 */

/** Why a payload text was not turned into a value. */
export type JsonRefusal = 'empty' | 'too_deep' | 'not_json' | 'not_an_object';

/** The result of {@link parseBoundedJson}. */
export type BoundedJson =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly reason: JsonRefusal };

/** Deepest nesting of `[`/`{` outside strings; stops early once `limit` is exceeded. Linear. */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return max;
}

/** Parses a JSON object whose nesting is at most `maxDepth`. Never throws. */
export function parseBoundedJson(text: string, maxDepth: number): BoundedJson {
  if (text.trim().length === 0) return { ok: false, reason: 'empty' };
  if (jsonDepth(text, maxDepth) > maxDepth) return { ok: false, reason: 'too_deep' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'not_an_object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
