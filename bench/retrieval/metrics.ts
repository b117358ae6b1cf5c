/**
 * Scoring of retrieval runs: the hit rules of the two protocols and the metrics reported for them.
 * Pure. R@k here is the fraction of questions with at least one hit in the top k (success@k), the
 * definition behind the published LoCoMo retrieval figures; MRR@10 is the mean of 1/rank of the first
 * hit, 0 when none is in the top 10.
 */
import type { BenchCategory } from './dataset.js';

/** Results deeper than this are never looked at: every metric is @10 or shallower. */
export const DEPTH = 10;

/**
 * `strict`: a hit is a retrieved turn named in the question's evidence. `session`: a hit is any
 * retrieved turn from a session that holds evidence (looser; only for comparison with systems that
 * publish it).
 */
export type Protocol = 'strict' | 'session';
export const PROTOCOLS: readonly Protocol[] = ['strict', 'session'];

/**
 * 1-based rank of the first hit within `DEPTH`, or null. `retrieved` holds, per result, the turn ids it
 * stands for (one, or several when identical turns were stored as one memory). `sessionOf` maps a
 * turn id to its session id and is used by the session protocol only.
 */
export function firstHitRank(
  protocol: Protocol,
  retrieved: readonly (readonly string[])[],
  evidence: readonly string[],
  sessionOf: (turnId: string) => string | undefined,
): number | null {
  const relevant =
    protocol === 'strict'
      ? new Set(evidence)
      : new Set(evidence.map(sessionOf).filter((s) => s !== undefined));
  const limit = Math.min(retrieved.length, DEPTH);
  for (let i = 0; i < limit; i++) {
    for (const turn of retrieved[i]!) {
      const key = protocol === 'strict' ? turn : sessionOf(turn);
      if (key !== undefined && relevant.has(key)) return i + 1;
    }
  }
  return null;
}

export interface Metrics {
  n: number;
  r1: number;
  r5: number;
  r10: number;
  mrr10: number;
}

/** Metrics over first-hit ranks (null = no hit in the top `DEPTH`). All zero for an empty list. */
export function summarise(ranks: readonly (number | null)[]): Metrics {
  const n = ranks.length;
  if (n === 0) return { n: 0, r1: 0, r5: 0, r10: 0, mrr10: 0 };
  let r1 = 0;
  let r5 = 0;
  let r10 = 0;
  let rr = 0;
  for (const rank of ranks) {
    if (rank === null || rank > DEPTH) continue;
    if (rank <= 1) r1 += 1;
    if (rank <= 5) r5 += 1;
    r10 += 1;
    rr += 1 / rank;
  }
  return { n, r1: r1 / n, r5: r5 / n, r10: r10 / n, mrr10: rr / n };
}

/** One question's outcome in one arm and protocol. */
export interface Outcome {
  /** Index of the question's conversation in the dataset (drives the tune / held-out split). */
  conversation: number;
  category: string;
  rank: number | null;
}

export interface BreakdownRow {
  /** `overall`, `overall excl. adversarial`, `cat <id> <name>`, `tune (conv 0-4)`, `held-out (conv 5-9)`. */
  label: string;
  metrics: Metrics;
}

/**
 * The report rows: overall, overall without adversarial categories, each category, then the tuning and
 * held-out conversation sets. `tuneConversations` is the number of leading conversations used for
 * tuning; the rest of the dataset's `conversationCount` are held out.
 */
export function breakdown(
  outcomes: readonly Outcome[],
  categories: readonly BenchCategory[],
  tuneConversations: number,
  conversationCount: number,
): BreakdownRow[] {
  const adversarial = new Set(categories.filter((c) => c.adversarial === true).map((c) => c.id));
  const pick = (keep: (o: Outcome) => boolean) =>
    summarise(outcomes.filter(keep).map((o) => o.rank));
  const rows: BreakdownRow[] = [{ label: 'overall', metrics: pick(() => true) }];
  if (adversarial.size > 0) {
    const names = categories
      .filter((c) => adversarial.has(c.id))
      .map((c) => c.name)
      .join(', ');
    rows.push({
      label: `overall excl. ${names}`,
      metrics: pick((o) => !adversarial.has(o.category)),
    });
  }
  for (const category of categories) {
    rows.push({
      label: `cat ${category.id} ${category.name}`,
      metrics: pick((o) => o.category === category.id),
    });
  }
  rows.push({
    label: `tune (conv 0-${tuneConversations - 1})`,
    metrics: pick((o) => o.conversation < tuneConversations),
  });
  rows.push({
    label: `held-out (conv ${tuneConversations}-${conversationCount - 1})`,
    metrics: pick((o) => o.conversation >= tuneConversations),
  });
  return rows;
}

/** The p-th percentile (0..100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
