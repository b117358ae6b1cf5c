/**
 * The injection benchmark's whole report: per engine mode the coding set, the negative prompts, the
 * session-start packs, the LoCoMo subset and the same conversations as long turns, then a summary
 * against the targets of issue 22. Pure.
 */
import { table } from '../retrieval/report.js';
import type { CoverageRow } from './coverage.js';
import type { EngineMode, HookStats } from './measure.js';
import { negativeTable, outcomeTable, type PackRow, packTable, pct, tokens } from './report.js';
import type { PromptRecord, TallyRow } from './tally.js';

export interface CodingResult {
  rows: TallyRow[];
  negatives: TallyRow[];
  /** The foreign prompts asked in their own project: they find their memory there. */
  control: TallyRow;
  packs: PackRow[];
  packTotal: CoverageRow[];
  records: { questions: PromptRecord[]; negatives: PromptRecord[]; control: PromptRecord[] };
  memories: { written: number; stored: number; projects: number };
  hooks: HookStats;
}

export interface LocomoResult {
  rows: TallyRow[];
  records: PromptRecord[];
  /** The negative prompts asked in this store, when they were. */
  negatives?: TallyRow;
  hooks: HookStats;
}

export interface ModeResult {
  mode: EngineMode;
  coding: CodingResult;
  locomo: LocomoResult | undefined;
  /** The same LoCoMo conversations with consecutive turns merged into 180–400-word memories. */
  locomoLong: LocomoResult | undefined;
}

export interface RenderInput {
  date: string;
  /** One line on the machine, load, duration and settings. */
  setting: string;
  /** Which LoCoMo conversations and questions ran. */
  locomoNote: string | undefined;
  /** The same for the long-turn subset. */
  locomoLongNote: string | undefined;
  results: readonly ModeResult[];
}

function hookLine(h: HookStats): string {
  const engine =
    h.engineAnswered === undefined
      ? ''
      : `; answered by the engine ${h.engineAnswered.answered ?? '?'} of ${h.engineAnswered.of}` +
        (h.searchFallbacks > 0
          ? `; ${h.searchFallbacks} baseline searches fell back to the store`
          : '');
  const leaks =
    h.leaks.length === 0 ? '0' : h.leaks.map((l) => `${l.prompt} → ${l.ids.join(',')}`).join('; ');
  return `Hooks run ${h.runs}, exit ≠ 0: ${h.failures}, wall ms p50 ${Math.round(h.p50)} / p95 ${Math.round(h.p95)}${engine}; cross-project leaks: ${leaks}.`;
}

function coverageCell(rows: readonly CoverageRow[], kind: string): string {
  const row = rows.find((r) => r.kind === kind);
  return row === undefined || row.questions === 0
    ? 'n/a'
    : `${row.covered}/${row.questions} (${pct(row.covered / row.questions)})`;
}

const overall = (rows: readonly TallyRow[]) => rows.find((r) => r.label === 'overall')!;

function locomoSection(title: string, l: LocomoResult, note: string | undefined): string[] {
  return [
    `### ${title} (${l.records.length} questions: ${note ?? ''})`,
    '',
    outcomeTable(l.rows),
    '',
    ...(l.negatives === undefined
      ? []
      : [
          `Negative prompts asked in this store: ${l.negatives.n}, injecting anything ${pct(l.negatives.injecting)}.`,
          '',
        ]),
    hookLine(l.hooks),
    '',
  ];
}

function modeSection(result: ModeResult, input: RenderInput): string[] {
  const { coding: c, locomo: l, locomoLong: long } = result;
  const out = [`## Engine ${result.mode}`, ''];
  out.push(
    `### Coding memories (${c.memories.projects} projects, ${c.memories.written} memories written, ${c.memories.stored} stored, ${c.records.questions.length} questions)`,
    '',
    outcomeTable(c.rows),
    '',
  );
  if (c.records.negatives.length > 0) {
    out.push(
      `### Negative prompts (${c.records.negatives.length}, asked round-robin in the coding projects)`,
      '',
      negativeTable(c.negatives),
      '',
      outcomeTable([c.control]),
      '',
    );
  }
  const all: PackRow = {
    project: 'all',
    items: c.packs.reduce((s, p) => s + p.items, 0),
    tokens: c.packs.reduce((s, p) => s + p.tokens, 0),
    coverage: c.packTotal,
  };
  out.push('### Session start (one new session per project)', '', packTable([...c.packs, all]), '');
  out.push(hookLine(c.hooks), '');
  if (l !== undefined) out.push(...locomoSection('LoCoMo subset', l, input.locomoNote));
  if (long !== undefined) {
    out.push(...locomoSection('LoCoMo long turns', long, input.locomoLongNote));
  }
  return out;
}

function summary(results: readonly ModeResult[]): string {
  const cell = (f: (r: ModeResult) => string) => results.map(f);
  const coding = (f: (row: TallyRow) => string) => cell((r) => f(overall(r.coding.rows)));
  const locomo = (f: (row: TallyRow) => string) =>
    cell((r) => (r.locomo === undefined ? 'n/a' : f(overall(r.locomo.rows))));
  const long = (f: (row: TallyRow) => string) =>
    cell((r) => (r.locomoLong === undefined ? 'n/a' : f(overall(r.locomoLong.rows))));
  const ranks = (row: TallyRow) => `${pct(row.rank1)} / ${pct(row.rank5)}`;
  const rows: string[][] = [
    [
      'coding: needed memory injected (full or index)',
      ...coding((r) => pct(r.needed)),
      '≥ 70 % up, ≥ 50 % down',
    ],
    ['coding: needed memory injected in full', ...coding((r) => pct(r.full)), '≥ 45 % up'],
    ['coding: wrong only', ...coding((r) => pct(r.wrong)), '≤ 10 %'],
    ['coding: silent', ...coding((r) => pct(r.silent)), ''],
    [
      'coding: tokens per injecting prompt, median / p90',
      ...coding((r) => `${tokens(r.tokensMedian)} / ${tokens(r.tokensP90)}`),
      'median ≤ 250',
    ],
    ['coding: search ranks needed first / in top 5', ...coding(ranks), ''],
    [
      'negative prompts that injected anything',
      ...cell((r) =>
        r.coding.records.negatives.length === 0 ? 'n/a' : pct(r.coding.negatives.at(-1)!.injecting),
      ),
      '≤ 5 %',
    ],
    [
      'cross-project leaks (every hook run)',
      ...cell((r) =>
        String(
          r.coding.hooks.leaks.length +
            (r.locomo?.hooks.leaks.length ?? 0) +
            (r.locomoLong?.hooks.leaks.length ?? 0),
        ),
      ),
      '0',
    ],
    [
      'session start: decision questions covered',
      ...cell((r) => coverageCell(r.coding.packTotal, 'decision')),
      '',
    ],
    [
      'session start: preference questions covered',
      ...cell((r) => coverageCell(r.coding.packTotal, 'preference')),
      '',
    ],
  ];
  if (results.some((r) => r.locomo !== undefined)) {
    rows.push(['LoCoMo subset: needed memory injected', ...locomo((r) => pct(r.needed)), '']);
    rows.push(['LoCoMo subset: wrong only', ...locomo((r) => pct(r.wrong)), '']);
    rows.push(['LoCoMo subset: search ranks needed first / in top 5', ...locomo(ranks), '']);
  }
  if (results.some((r) => r.locomoLong !== undefined)) {
    rows.push(['LoCoMo long turns: needed memory injected', ...long((r) => pct(r.needed)), '']);
    rows.push(['LoCoMo long turns: wrong only', ...long((r) => pct(r.wrong)), '']);
    rows.push(['LoCoMo long turns: search ranks needed first / in top 5', ...long(ranks), '']);
    rows.push([
      'LoCoMo long turns: negative prompts that injected anything',
      ...cell((r) =>
        r.locomoLong?.negatives === undefined ? 'n/a' : pct(r.locomoLong.negatives.injecting),
      ),
      '≤ 5 %',
    ]);
  }
  return table(['Measure', ...results.map((r) => `engine ${r.mode}`), 'target (issue 22)'], rows);
}

export function renderResults(input: RenderInput): string {
  const out = [`# Injection benchmark (end to end), ${input.date}`, '', input.setting, ''];
  for (const result of input.results) out.push(...modeSection(result, input));
  if (input.results.length > 0) out.push('## Summary', '', summary(input.results));
  return `${out.join('\n')}\n`;
}
