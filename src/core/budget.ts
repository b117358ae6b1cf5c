/**
 * Token budgeting for injected context: a tokenizer-free estimate and a packer that selects items, in
 * priority order, without ever exceeding the budget. Pure: no I/O, no clock.
 *
 * Session start injects within ~1,500 tokens and prompt recall within ~600 (threat model R9: re-injection
 * flooding). The budget is a ceiling, so every estimate here errs towards counting too many tokens.
 */

/** Appended to a body that was cut to fit the budget, so the reader knows the memory continues. */
export const TRUNCATION_MARKER = '…[truncated]';

/**
 * Estimates how many model tokens `text` costs, without a tokenizer dependency.
 *
 * - ASCII: `ceil(asciiChars / 4)`. BPE tokenizers average about four characters per token on English prose
 *   and identifier-heavy code; symbol-dense code runs lower, which is why callers keep budgets as soft
 *   targets with slack.
 * - Non-ASCII BMP code points: one token each. CJK ideographs cost one to two tokens, and accented or
 *   non-Latin letters break words into byte-level pieces, so charging per character keeps the estimate
 *   on the high side where chars/4 would undercount threefold.
 * - Astral code points (emoji, rare scripts): two tokens each; their four UTF-8 bytes usually split.
 *
 * The estimate is monotone (a longer prefix never costs less) and sub-additive
 * (`estimateTokens(a + b) <= estimateTokens(a) + estimateTokens(b)`), so summing the costs of the parts
 * of a rendered text bounds the cost of the whole.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (codePoint < 0x80) ascii += 1;
    else if (codePoint > 0xffff) other += 2;
    else other += 1;
  }
  return Math.ceil(ascii / 4) + other;
}

export interface PackOptions<T> {
  /** The ceiling, in estimated tokens, for everything emitted including `overhead`. */
  budgetTokens: number;
  /** Cost of one item in tokens. A negative or non-finite cost marks the item as unaffordable. */
  cost: (item: T) => number;
  /** Fixed cost paid once when at least one item is selected (e.g. the frame's opener, notice, closer). */
  overhead?: number;
  /**
   * Optional: a shortened copy of `item` costing at most `maxTokens`, or `undefined` when no useful copy
   * fits. The packer re-checks the copy's cost, so a wrong callback cannot break the budget.
   */
  truncate?: (item: T, maxTokens: number) => T | undefined;
}

export interface PackResult<T> {
  /** The selected items in their input order; the last one may be a truncated copy. */
  items: T[];
  /** `overhead` plus the cost of every selected item; 0 when nothing is selected. */
  usedTokens: number;
  /** How many input items are not in `items` (a truncated item counts as included). */
  omitted: number;
  /** True when the last selected item is a copy produced by `truncate`. */
  truncated: boolean;
}

/**
 * Selects items in priority order (first = most important) so that `overhead` plus their summed cost never
 * exceeds `budgetTokens`.
 *
 * First-fit: an item that does not fit is skipped and later, cheaper items may still be taken, so the
 * output is an order-preserving subsequence. For equal-cost items this selects the most items possible.
 *
 * With `truncate`, the first item that does not fit is shortened into the remaining budget instead of
 * skipped, and packing stops there: a cut-down copy of a higher-priority memory beats whole copies of
 * lower-priority ones, and only the final item is ever cut. When no useful copy fits, packing goes on
 * first-fit as without `truncate`.
 *
 * A non-finite or non-positive budget, or one smaller than `overhead`, selects nothing.
 */
export function packWithinBudget<T>(items: readonly T[], options: PackOptions<T>): PackResult<T> {
  const overhead = Math.max(0, options.overhead ?? 0);
  const budget = Number.isNaN(options.budgetTokens) ? 0 : options.budgetTokens;
  let remaining = budget - overhead;
  const selected: T[] = [];
  let spent = 0;
  let truncated = false;
  if (budget <= 0 || remaining < 0) {
    return { items: [], usedTokens: 0, omitted: items.length, truncated: false };
  }
  for (const item of items) {
    const cost = affordableCost(options.cost(item));
    if (cost !== undefined && cost <= remaining) {
      selected.push(item);
      spent += cost;
      remaining -= cost;
      continue;
    }
    if (options.truncate === undefined) continue;
    const copy = options.truncate(item, remaining);
    const copyCost = copy === undefined ? undefined : affordableCost(options.cost(copy));
    if (copy !== undefined && copyCost !== undefined && copyCost <= remaining) {
      selected.push(copy);
      spent += copyCost;
      truncated = true;
      break;
    }
  }
  return {
    items: selected,
    usedTokens: selected.length === 0 ? 0 : overhead + spent,
    omitted: items.length - selected.length,
    truncated,
  };
}

/**
 * Cuts `text` so that the result, including {@link TRUNCATION_MARKER}, costs at most `maxTokens`.
 * Returns `text` unchanged when it already fits, and `undefined` when not even the marker fits. Never
 * splits a surrogate pair.
 */
export function truncateToTokens(text: string, maxTokens: number): string | undefined {
  if (estimateTokens(text) <= maxTokens) return text;
  if (estimateTokens(TRUNCATION_MARKER) > maxTokens) return undefined;
  // Binary search over the prefix length; valid because estimateTokens is monotone in the prefix.
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(cutAt(text, middle) + TRUNCATION_MARKER) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  return cutAt(text, low).trimEnd() + TRUNCATION_MARKER;
}

function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  const endsInHighSurrogate = code >= 0xd800 && code <= 0xdbff;
  return text.slice(0, endsInHighSurrogate ? length - 1 : length);
}

function affordableCost(cost: number): number | undefined {
  return Number.isFinite(cost) && cost >= 0 ? cost : undefined;
}
