/**
 * Length caps for untrusted payload fields. Every field a hook reads is cut here first, before any regex,
 * split or JSON walk touches it, so the cost of everything downstream is bounded by the cap rather than by
 * what the host (or a hostile page inside a tool response) sent. Caps count UTF-16 code units.
 */

/** A capped field: the kept head and how much was cut. */
export interface CappedText {
  readonly text: string;
  /** Code units dropped from the end; 0 when the field fit. */
  readonly dropped: number;
}

/**
 * The first `max` code units of `value` (no cut through a surrogate pair, which would leave an unpaired
 * half that storage refuses). Anything that is not a string yields empty text.
 */
export function capText(value: unknown, max: number): CappedText {
  if (typeof value !== 'string') return { text: '', dropped: 0 };
  if (value.length <= max) return { text: value, dropped: 0 };
  let cut = Math.max(0, max);
  const last = value.charCodeAt(cut - 1);
  if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return { text: value.slice(0, cut), dropped: value.length - cut };
}

/** The marker appended where a field was cut, so a reader knows the text is a head, not the whole. */
export function truncationMarker(dropped: number): string {
  return dropped > 0 ? ` … [truncated ${dropped} chars]` : '';
}

/** `capText` with the marker appended when something was cut. */
export function capWithMarker(value: unknown, max: number): string {
  const capped = capText(value, max);
  return capped.text + truncationMarker(capped.dropped);
}

/**
 * Text found in an unknown-shaped value (MCP results, search hits): strings are collected depth-first
 * until `maxChars` are gathered or `maxNodes` values were visited, whichever comes first. The walk is
 * iterative and bounded, so a deep or huge structure costs at most `maxNodes` steps.
 */
export function collectText(value: unknown, maxChars: number, maxNodes = 2000): CappedText {
  const parts: string[] = [];
  let total = 0;
  let dropped = 0;
  let visited = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && visited < maxNodes) {
    const current = stack.pop();
    visited += 1;
    if (typeof current === 'string') {
      const room = maxChars - total;
      const capped = capText(current, Math.max(0, room));
      if (capped.text.length > 0) parts.push(capped.text);
      total += capped.text.length;
      dropped += capped.dropped;
    } else if (Array.isArray(current)) {
      for (let i = Math.min(current.length, maxNodes) - 1; i >= 0; i--) stack.push(current[i]);
    } else if (current !== null && typeof current === 'object') {
      const values = Object.values(current as Record<string, unknown>).slice(0, maxNodes);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  if (stack.length > 0) dropped += 1;
  return { text: parts.join('\n'), dropped };
}
