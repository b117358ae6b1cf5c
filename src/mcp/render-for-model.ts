/**
 * The MCP side of the one renderer: every tool that returns memory text passes it through
 * `renderMemories` (the text block) and `renderMemoriesJson` (the structured copy), with a fresh nonce
 * per emission. Secrets are redacted again at read time, for rows written before redaction existed
 * (threat model R7), and review state, taint, pinning and tags travel as flattened header flags.
 */
import { isStale, type MemoryStaleness } from '../core/anchors/staleness.js';
import { toRenderItem as injectionItem } from '../core/injection/injectable.js';
import type { Memory } from '../core/memory.js';
import { redactSecrets } from '../core/redact/redact-secrets.js';
import {
  type RecallJson,
  type RenderItem,
  renderMemories,
  renderMemoriesJson,
} from '../core/render/render-memories.js';
import type { ToolContext } from './tool.js';

/** Read-time labels of a memory, in a stable order. */
export function memoryFlags(memory: Memory): string[] {
  const flags: string[] = [];
  if (memory.visibility === 'global') flags.push('global');
  if (memory.pinned) flags.push('pinned');
  if (memory.quarantine === 'pending') flags.push('quarantine:pending');
  if (memory.quarantine === 'rejected') flags.push('quarantine:rejected');
  if (memory.tainted) flags.push('tainted');
  if (memory.supersededBy !== null) flags.push(`superseded-by:${memory.supersededBy}`);
  for (const tag of memory.tags) flags.push(`#${redactSecrets(tag).text}`);
  return flags;
}

/** A memory as the renderer takes it, content redacted; a stale one flagged, with its note. */
export function toRenderItem(memory: Memory, staleness?: MemoryStaleness): RenderItem {
  // The injection renderer's item (content redacted at read time, stale note), with the fuller labels of
  // explicit recall.
  return {
    ...injectionItem(memory, staleness),
    flags: [...memoryFlags(memory), ...(isStale(staleness) ? ['stale'] : [])],
  };
}

/** One emission in both forms, sharing one nonce. `text` is `''` for no memories. */
export interface RenderedMemories {
  text: string;
  json: RecallJson;
}

/** Renders `memories` (in order) for the model. */
export function renderForModel(
  ctx: Pick<ToolContext, 'nonce' | 'app'>,
  memories: readonly Memory[],
  title: string,
  staleness: ReadonlyMap<string, MemoryStaleness> = new Map(),
): RenderedMemories {
  // A stale memory (a cited file changed, moved or was deleted; threat model R5) is labelled: quality only.
  const items = memories.map((memory) => toRenderItem(memory, staleness.get(memory.id)));
  const options = { nonce: ctx.nonce(), title, now: ctx.app.clock.now().toISOString() };
  return { text: renderMemories(items, options), json: renderMemoriesJson(items, options) };
}
