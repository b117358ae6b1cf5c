/**
 * The kind a person gives a memory by its first word: `mnemo remember "Decision: use pnpm"` is a
 * decision, so the session-start pack, which carries decisions and preferences, finds it. Only origins
 * allowed `labelKind` (core/privileges: a person) are read this way; agent, tool and web text never
 * chooses its own kind, whatever it starts with. Pure.
 */
import type { MemoryKind } from './memory.js';

/** Label words and the kind each gives. A convention is a standing decision. */
export const KIND_LABELS: ReadonlyMap<string, MemoryKind> = new Map([
  ['decision', 'decision'],
  ['preference', 'preference'],
  ['convention', 'decision'],
  ['fix', 'fix'],
]);

const LABEL = /^\s*([A-Za-z]+)\s*:/u;

/** The kind the text's leading label names (`Decision:`, `preference :`), or undefined. */
export function kindFromLabel(text: string): MemoryKind | undefined {
  const word = LABEL.exec(text.slice(0, 64))?.[1]?.toLowerCase();
  return word === undefined ? undefined : KIND_LABELS.get(word);
}
