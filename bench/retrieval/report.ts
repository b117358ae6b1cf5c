/**
 * Plain-text tables for the benchmark's stdout. Pure formatting.
 */
import { type BreakdownRow, type Metrics, type Protocol, PROTOCOLS, summarise } from './metrics.js';

/** Left-aligned first column, right-aligned others, two spaces apart. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const fixed3 = (value: number): string =>
  Number.isFinite(value) ? value.toFixed(3) : 'n/a';
export const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

/** One arm's breakdown: label, n, R@1, R@5, R@10, MRR@10. */
export function breakdownTable(rows: readonly BreakdownRow[]): string {
  return table(
    ['', 'n', 'R@1', 'R@5', 'R@10', 'MRR@10'],
    rows.map(({ label, metrics }) => [label, String(metrics.n), ...metricCells(metrics)]),
  );
}

/** R@1, R@5, R@10, MRR@10; `-` for an empty set (e.g. held-out conversations that were not run). */
export function metricCells(m: Metrics): string[] {
  if (m.n === 0) return ['-', '-', '-', '-'];
  return [fixed3(m.r1), fixed3(m.r5), fixed3(m.r10), fixed3(m.mrr10)];
}

/**
 * Every arm's R@10 / MRR@10 per category (the rows of `breakdown` whose label starts with `cat `), side
 * by side: one row per arm, one column per category, its question count in the header.
 */
export function categoryTable(
  results: readonly Pick<ArmResult, 'name' | 'rows'>[],
  protocol: Protocol,
): string {
  const categories = (results[0]?.rows[protocol] ?? []).filter((r) => r.label.startsWith('cat '));
  return table(
    ['arm (R@10 / MRR@10)', ...categories.map((c) => `${c.label.slice(4)} (${c.metrics.n})`)],
    results.map((r) => [
      r.name,
      ...categories.map((c) => {
        const m = r.rows[protocol].find((row) => row.label === c.label)?.metrics ?? summarise([]);
        return m.n === 0 ? '-' : `${fixed3(m.r10)} / ${fixed3(m.mrr10)}`;
      }),
    ]),
  );
}

export interface ArmResult {
  name: string;
  description: string;
  rows: Record<Protocol, BreakdownRow[]>;
  latencyMs: Latency;
  queryEmbeddingMs: Latency | undefined;
}

export interface Latency {
  p50: number;
  p95: number;
  n: number;
}

export interface ReportInput {
  title: string;
  header: readonly string[];
  results: readonly ArmResult[];
  /** [step, items, total ms]; items 0 means everything came from the cache. */
  ingest: readonly (readonly [string, number, number])[];
  queryEmbedding: ReadonlyMap<string, Latency>;
}

/** The whole stdout report of a benchmark run. */
export function renderReport(input: ReportInput): string {
  const out: string[] = [`# mnemo retrieval benchmark: ${input.title}`, ...input.header, ''];
  for (const protocol of PROTOCOLS) {
    out.push(`## ${protocol} protocol: side by side`);
    const pick = (rows: BreakdownRow[], prefix: string) =>
      rows.find((r) => r.label.startsWith(prefix))?.metrics ?? summarise([]);
    out.push(
      table(
        [
          'arm',
          'R@1',
          'R@5',
          'R@10',
          'MRR@10',
          'R@10 excl.adv',
          'MRR excl.adv',
          'R@10 held-out',
          'MRR held-out',
        ],
        input.results.map((r) => {
          const all = r.rows[protocol][0]!.metrics;
          const noAdv = pick(r.rows[protocol], 'overall excl.');
          const held = pick(r.rows[protocol], 'held-out');
          return [
            r.name,
            ...metricCells(all),
            ...metricCells(noAdv).slice(2),
            ...metricCells(held).slice(2),
          ];
        }),
      ),
    );
    out.push('');
    out.push(`## ${protocol} protocol: per category, side by side`);
    out.push(categoryTable(input.results, protocol));
    out.push('');
  }
  out.push('## query latency per arm (warm; search only, query vectors precomputed)');
  out.push(
    table(
      ['arm', 'n', 'p50 ms', 'p95 ms', 'embed p50', 'embed p95', 'p95 + embed p95'],
      input.results.map((r) => [
        r.name,
        String(r.latencyMs.n),
        ms(r.latencyMs.p50),
        ms(r.latencyMs.p95),
        r.queryEmbeddingMs === undefined ? '-' : ms(r.queryEmbeddingMs.p50),
        r.queryEmbeddingMs === undefined ? '-' : ms(r.queryEmbeddingMs.p95),
        ms(r.latencyMs.p95 + (r.queryEmbeddingMs?.p95 ?? 0)),
      ]),
    ),
  );
  out.push('');
  out.push('## strict protocol: per arm');
  for (const r of input.results) {
    out.push(`### ${r.name}: ${r.description}`);
    out.push(breakdownTable(r.rows.strict));
    out.push('');
  }
  out.push('## session protocol: per arm (comparison only)');
  for (const r of input.results) {
    out.push(`### ${r.name}`);
    out.push(breakdownTable(r.rows.session));
    out.push('');
  }
  out.push('## ingest and query embedding');
  out.push(
    table(
      ['step', 'items', 'total ms', 'ms/item'],
      input.ingest.map(([step, items, total]) => [
        step,
        String(items),
        ms(total),
        items === 0 ? 'cached' : ms(total / items),
      ]),
    ),
  );
  out.push('');
  out.push(
    table(
      ['query embedding (single, warm)', 'n', 'p50 ms', 'p95 ms'],
      [...input.queryEmbedding].map(([model, t]) => [model, String(t.n), ms(t.p50), ms(t.p95)]),
    ),
  );
  return `${out.join('\n')}\n`;
}
