/**
 * Sums the per-prompt records of the injection benchmark into rates per category and overall: what
 * share of prompts got the memory they needed (in full, or only as an index line), only wrong memories,
 * or nothing; how many tokens an injecting prompt cost; and, beside it, where the same search ranked
 * the needed memory, so the gap between ranking and injection is visible. Pure.
 */
import { percentile } from '../retrieval/metrics.js';
import type { PromptOutcome } from './classify.js';

/** One prompt sent to the hook, as measured. */
export interface PromptRecord {
  /** Question or prompt id. */
  id: string;
  /** Category id (dataset's), or the negative prompt's kind. */
  category: string;
  outcome: PromptOutcome;
  /** Estimated tokens of the injected context (0 when silent). */
  tokens: number;
  /** Memories the context held. */
  injected: number;
  /** Injected memories of another project (must be 0). */
  leaks: number;
  /** Rank of the first needed memory in the search's candidates (null: not among them); absent for negatives. */
  rank?: number | null;
}

export interface TallyRow {
  label: string;
  n: number;
  full: number;
  index: number;
  /** full + index: the needed memory reached the agent in some form. */
  needed: number;
  wrong: number;
  silent: number;
  /** Share of prompts that injected anything. */
  injecting: number;
  /** Median and p90 of estimated tokens over the prompts that injected something (NaN when none did). */
  tokensMedian: number;
  tokensP90: number;
  /** Mean injected memories per injecting prompt. */
  memoriesPerInjection: number;
  leaks: number;
  /** Shares of prompts whose needed memory the search ranked first / in the top 5 (NaN without ranks). */
  rank1: number;
  rank5: number;
}

/** One row over `records`. Rates are shares in [0, 1]; an empty set gives n 0 and NaN rates. */
export function tallyRow(label: string, records: readonly PromptRecord[]): TallyRow {
  const n = records.length;
  const share = (outcome: PromptOutcome) => records.filter((r) => r.outcome === outcome).length / n;
  const injecting = records.filter((r) => r.outcome !== 'silent');
  const tokens = injecting.map((r) => r.tokens);
  const ranked = records.filter((r) => r.rank !== undefined);
  const rankShare = (k: number) =>
    ranked.length === 0
      ? Number.NaN
      : ranked.filter((r) => r.rank !== null && r.rank !== undefined && r.rank <= k).length /
        ranked.length;
  return {
    label,
    n,
    full: share('full'),
    index: share('index'),
    needed: share('full') + share('index'),
    wrong: share('wrong'),
    silent: share('silent'),
    injecting: injecting.length / n,
    tokensMedian: percentile(tokens, 50),
    tokensP90: percentile(tokens, 90),
    memoriesPerInjection:
      injecting.length === 0
        ? Number.NaN
        : injecting.reduce((sum, r) => sum + r.injected, 0) / injecting.length,
    leaks: records.reduce((sum, r) => sum + r.leaks, 0),
    rank1: rankShare(1),
    rank5: rankShare(5),
  };
}

/**
 * One row per category (in the order given, categories without records left out), then `overall`,
 * then, when some categories are `excluded` (adversarial), an `overall excl. …` row without them.
 */
export function tallyByCategory(
  records: readonly PromptRecord[],
  categories: readonly { id: string; name: string }[],
  excluded: readonly string[] = [],
): TallyRow[] {
  const rows = categories
    .map((c) =>
      tallyRow(
        `${c.id} ${c.name}`,
        records.filter((r) => r.category === c.id),
      ),
    )
    .filter((row) => row.n > 0);
  rows.push(tallyRow('overall', records));
  if (excluded.length > 0) {
    const names = categories.filter((c) => excluded.includes(c.id)).map((c) => c.name);
    rows.push(
      tallyRow(
        `overall excl. ${names.join(', ')}`,
        records.filter((r) => !excluded.includes(r.category)),
      ),
    );
  }
  return rows;
}
