/**
 * Which memories a project page already holds verbatim: the entry with the memory's id shows exactly
 * the text the page would show for it now. Session start leaves those out of its pack and points at
 * the page instead (the page is in a file Claude Code reads anyway). An entry edited since, or an
 * outdated one, does not count, so nothing current goes missing. Pure.
 */
import type { Memory, MemoryId } from '../memory.js';
import { pageText } from './page-text.js';
import type { ParsedPage } from './parse-page.js';

export function heldByPage(parsed: ParsedPage, memories: readonly Memory[]): Set<MemoryId> {
  const texts = new Map<MemoryId, string>();
  for (const entry of parsed.entries) if (entry.id !== null) texts.set(entry.id, entry.text);
  const held = new Set<MemoryId>();
  for (const memory of memories) {
    const text = texts.get(memory.id);
    if (text !== undefined && text === pageText(memory.content)) held.add(memory.id);
  }
  return held;
}
