/**
 * The renderer behind proactive injection: picks as many memories as fit a token budget (session start
 * ~1,500, prompt recall ~600; threat model R9) and frames them. Costs are measured on the sanitised,
 * quoted text actually emitted, because neutralisation can lengthen a body.
 */
import { estimateTokens, packWithinBudget, truncateToTokens } from '../budget.js';
import { assertNonce, closerLine, noticeLine, openerLine } from './frame.js';
import { headerLine, type PreparedItem, prepareItems, type RenderItem } from './prepare-items.js';
import { framePrepared, itemBlock, type RenderOptions } from './render-memories.js';

/** Below this many tokens a cut-down body says too little to be worth its header; it is dropped. */
const MIN_TRUNCATED_BODY_TOKENS = 16;

interface Entry {
  item: PreparedItem;
  index: number;
}

export interface BudgetedRenderOptions extends RenderOptions {
  /** Ceiling for the whole emission, frame included, by {@link estimateTokens}. */
  budgetTokens: number;
  /** Cut the first memory that does not fit into the remaining budget instead of skipping it. Default true. */
  truncate?: boolean;
}

export interface BudgetedRender {
  /** The framed text, or `''` when nothing fits. */
  text: string;
  /** Estimated tokens of `text`; never above `budgetTokens`. */
  tokens: number;
  /** Ids of the rendered memories, in order (as flattened in their headers). */
  included: string[];
  /** Ids of the memories left out. */
  omitted: string[];
  /** True when the last rendered memory was cut and ends with `…[truncated]`. */
  truncated: boolean;
}

/**
 * Renders the highest-priority `items` (input order = priority) that fit `budgetTokens`, with the same
 * output and invariants as `renderMemories`. Selection is first-fit: a memory too large to fit is cut to
 * the remaining budget (`truncate`, default) and ends the selection, or is skipped so later, smaller
 * ones can still fit.
 *
 * @throws MemoryError INVALID_INPUT when the nonce is not 16–128 lower-case hex characters.
 */
export function renderMemoriesWithinBudget(
  items: readonly RenderItem[],
  options: BudgetedRenderOptions,
): BudgetedRender {
  const nonce = assertNonce(options.nonce);
  const prepared = prepareItems(items, options.now);
  // Positions depend on selection, so cost is taken at the widest number any item could get.
  const widest = Math.max(1, prepared.length);
  // The text is opener+notice, then each block with its newline, then the closer; costing the parts
  // separately bounds the whole because the estimate is sub-additive.
  const overhead =
    estimateTokens(`${openerLine(nonce)}\n${noticeLine(options.title)}\n`) +
    estimateTokens(closerLine(nonce));
  const entries = prepared.map((item, index) => ({ item, index }));
  const packed = packWithinBudget(entries, {
    budgetTokens: options.budgetTokens,
    overhead,
    cost: (entry) => estimateTokens(`${itemBlock(widest, entry.item)}\n`),
    ...(options.truncate === false
      ? {}
      : {
          truncate: (entry: Entry, max: number) => {
            const item = truncateBody(entry.item, max, widest);
            return item === undefined ? undefined : { item, index: entry.index };
          },
        }),
  });
  const chosen = packed.items.map((entry) => entry.item);
  const text = chosen.length === 0 ? '' : framePrepared(chosen, nonce, options.title);
  const includedIndexes = new Set(packed.items.map((entry) => entry.index));
  return {
    text,
    tokens: estimateTokens(text),
    included: chosen.map((item) => item.id),
    omitted: entries.filter((entry) => !includedIndexes.has(entry.index)).map((e) => e.item.id),
    truncated: packed.truncated,
  };
}

function truncateBody(
  item: PreparedItem,
  maxTokens: number,
  position: number,
): PreparedItem | undefined {
  const lineCount = item.body.split('\n').length;
  // The `> ` prefixes and the trailing newline, charged separately; valid because the estimate is
  // sub-additive, and the packer re-checks the real cost anyway.
  const quoting = Math.ceil((2 * lineCount + 1) / 4);
  const bodyBudget = maxTokens - estimateTokens(`${headerLine(position, item)}\n`) - quoting;
  if (bodyBudget < MIN_TRUNCATED_BODY_TOKENS) return undefined;
  const body = truncateToTokens(item.body, bodyBudget);
  return body === undefined ? undefined : { ...item, body };
}
