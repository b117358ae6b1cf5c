/**
 * Markdown tables of the injection benchmark, one renderer for stdout and docs/benchmarks.md. Pure.
 */
import { table } from '../retrieval/report.js';
import type { CoverageRow } from './coverage.js';
import type { TallyRow } from './tally.js';

/** A share as a percentage with no decimals (`17 %`); n/a for NaN. */
export function pct(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value * 100)} %` : 'n/a';
}

/** A token count, rounded; n/a for NaN. */
export function tokens(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value)) : 'n/a';
}

/** Per-category rows of one dataset and mode. */
export function outcomeTable(rows: readonly TallyRow[]): string {
  return table(
    [
      'Category',
      'n',
      'needed in full',
      'needed as index line',
      'wrong only',
      'silent',
      'tokens median / p90',
      'memories per injection',
      'search: needed at 1 / top 5',
    ],
    rows.map((r) => [
      r.label,
      String(r.n),
      pct(r.full),
      pct(r.index),
      pct(r.wrong),
      pct(r.silent),
      `${tokens(r.tokensMedian)} / ${tokens(r.tokensP90)}`,
      Number.isFinite(r.memoriesPerInjection) ? r.memoriesPerInjection.toFixed(1) : 'n/a',
      `${pct(r.rank1)} / ${pct(r.rank5)}`,
    ]),
  );
}

/** Negative prompts: how many injected anything, what it cost, and leaks from another project. */
export function negativeTable(rows: readonly TallyRow[]): string {
  return table(
    ['Negative prompts', 'n', 'injected anything', 'tokens median / p90', 'cross-project leaks'],
    rows.map((r) => [
      r.label,
      String(r.n),
      pct(r.injecting),
      `${tokens(r.tokensMedian)} / ${tokens(r.tokensP90)}`,
      String(r.leaks),
    ]),
  );
}

export interface PackRow {
  project: string;
  items: number;
  tokens: number;
  coverage: readonly CoverageRow[];
}

/** Session-start packs per project, and the questions' needs they cover. */
export function packTable(rows: readonly PackRow[]): string {
  const cell = (coverage: readonly CoverageRow[], kind: string, of: 'questions' | 'memories') => {
    const row = coverage.find((c) => c.kind === kind);
    if (row === undefined) return 'n/a';
    const [have, all] =
      of === 'questions' ? [row.covered, row.questions] : [row.memoriesInPack, row.memories];
    return all === 0 ? '–' : `${have}/${all} (${pct(have / all)})`;
  };
  return table(
    [
      'Project',
      'pack memories',
      'pack tokens',
      'decision questions covered',
      'preference questions covered',
      'decisions in pack',
      'preferences in pack',
    ],
    rows.map((r) => [
      r.project,
      String(r.items),
      String(r.tokens),
      cell(r.coverage, 'decision', 'questions'),
      cell(r.coverage, 'preference', 'questions'),
      cell(r.coverage, 'decision', 'memories'),
      cell(r.coverage, 'preference', 'memories'),
    ]),
  );
}
