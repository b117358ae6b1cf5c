/**
 * A memory's staleness from its anchors alone, with the words recall and session start show for it. A
 * quality signal, never trust (threat model R5): a stale memory stays visible, labelled and ranked a
 * little lower; only a memory whose every cited file was deleted leaves proactive injection, and then
 * the ledger and `explain` say so. Pure: the verdicts arrive from the checker.
 */
import type { AnchorSet, AnchorVerdict } from './anchor.js';
import { fileAnchors } from './anchor.js';

/**
 * - `pending`: written before anchors existed (or without a project directory) and not backfilled yet;
 * - `unanchored`: resolved, but it cites no file that existed (only mentions, or nothing);
 * - `fresh`: every cited file is as it was;
 * - `stale`: at least one cited file changed, moved, went missing or was deleted;
 * - `gone`: every cited file was deleted (the one state that withholds it from session start);
 * - `unchecked`: not checked here (another project's memory, or no project directory to check against).
 */
export const STALENESS_STATUSES = [
  'pending',
  'unanchored',
  'fresh',
  'stale',
  'gone',
  'unchecked',
] as const;
export type StalenessStatus = (typeof STALENESS_STATUSES)[number];

export interface AnchorReading {
  readonly path: string;
  readonly verdict: AnchorVerdict;
}

export interface MemoryStaleness {
  readonly status: StalenessStatus;
  /** The verdict of each file anchor, in anchor order (empty unless checked). */
  readonly anchors: readonly AnchorReading[];
  /** For `stale` and `gone`: "cites src/db.ts, changed 4 commits ago" (+ how many more files). */
  readonly label?: string;
}

/**
 * The rank factor of a stale or gone memory in recall and in the session pack's recent section: one
 * bounded multiplier applied after fusion (`core/ranking/stale-rank.ts`), so a fusion change cannot drop
 * it. 0.8 moves a first place in one leg of k = 10 RRF (1/11) just below a fresh second place (1/12) and
 * keeps it above a fresh fourth (1/14): lower, still in view. Trust factors (down to 0.5) stay stronger.
 */
export const STALE_RANK_FACTOR = 0.8;

export const UNCHECKED: MemoryStaleness = { status: 'unchecked', anchors: [] };
export const PENDING: MemoryStaleness = { status: 'pending', anchors: [] };

/** Reduces a set and the verdicts of its file anchors (by path) to the memory's staleness. */
export function memoryStaleness(
  set: AnchorSet | undefined,
  verdicts: ReadonlyMap<string, AnchorVerdict>,
): MemoryStaleness {
  if (set === undefined) return PENDING;
  const files = fileAnchors(set.anchors);
  if (files.length === 0) return { status: 'unanchored', anchors: [] };
  const anchors = files.map((anchor) => ({
    path: anchor.path,
    verdict: verdicts.get(anchor.path) ?? { state: 'unknown' as const, note: 'not_checked' },
  }));
  const stale = anchors.filter((a) => isStaleState(a.verdict));
  if (stale.length === 0) return { status: 'fresh', anchors };
  const gone = anchors.every((a) => a.verdict.state === 'deleted');
  return { status: gone ? 'gone' : 'stale', anchors, label: staleLabel(stale) };
}

/** True for a verdict that makes its memory stale. */
export function isStaleState(verdict: AnchorVerdict): boolean {
  return (
    verdict.state === 'changed' ||
    verdict.state === 'renamed' ||
    verdict.state === 'deleted' ||
    verdict.state === 'missing'
  );
}

/** True for `stale` and `gone`. */
export function isStale(staleness: MemoryStaleness | undefined): boolean {
  return staleness?.status === 'stale' || staleness?.status === 'gone';
}

/** The rank factor of a memory: {@link STALE_RANK_FACTOR} when stale or gone, else 1. */
export function staleRankFactor(staleness: MemoryStaleness | undefined): number {
  return isStale(staleness) ? STALE_RANK_FACTOR : 1;
}

/** "cites src/db.ts, changed 4 commits ago", naming the first stale file and counting the others. */
export function staleLabel(stale: readonly AnchorReading[]): string {
  const [first, ...rest] = stale;
  if (first === undefined) return '';
  const more =
    rest.length === 0 ? '' : ` (+${rest.length} more ${rest.length === 1 ? 'file' : 'files'})`;
  return `cites ${first.path}, ${describeVerdict(first.verdict)}${more}`;
}

/** What happened to one file, in a few words: "changed 4 commits ago", "renamed to src/b.ts". */
export function describeVerdict(verdict: AnchorVerdict): string {
  const when = whenText(verdict);
  switch (verdict.state) {
    case 'fresh':
      return 'unchanged';
    case 'changed': {
      const gone = verdict.missingSymbols ?? [];
      const symbols = gone.length === 0 ? '' : `; ${gone.join(', ')} no longer in it`;
      return `changed${when}${symbols}`;
    }
    case 'renamed':
      return `renamed to ${verdict.renamedTo ?? 'another path'}${when}`;
    case 'deleted':
      return `deleted${when}`;
    case 'missing':
      return 'missing from the working tree';
    case 'unknown':
      return `not checked (${verdict.note ?? 'unknown'})`;
  }
}

function whenText(verdict: AnchorVerdict): string {
  if (verdict.commitsAgo !== undefined) {
    return verdict.commitsAgo <= 1 ? ' in the last commit' : ` ${verdict.commitsAgo} commits ago`;
  }
  if (verdict.uncommitted === true) return ' (not committed)';
  return ' since it was written';
}
