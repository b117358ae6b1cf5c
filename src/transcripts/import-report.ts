/**
 * The tally of a transcript import and its two renderings: the progress line (with an ETA) shown while
 * it runs, and the final summary. Pure: times arrive as numbers.
 */
import type { PairSkipReason } from './capture-pair.js';

/** Why a tool result stored nothing: a pair skip, or a result whose call was never seen. */
export type ImportSkipReason = PairSkipReason | 'unpaired';

/** Counts of one import run. */
export interface ImportReport {
  root: string;
  dryRun: boolean;
  files: {
    found: number;
    read: number;
    unchanged: number;
    restarted: number;
    olderThanSince: number;
  };
  lines: { read: number; malformed: number; incompleteTail: number };
  /** Tool calls answered by a result. */
  pairs: number;
  stored: number;
  merged: number;
  /** Dry run: pairs that would be offered to the write service. */
  offered: number;
  /** `--mend`: rows given missing provenance, rows already complete, pairs with no row to mend. */
  mend?: { mended: number; unchanged: number; unknown: number };
  skipped: Partial<Record<ImportSkipReason, number>>;
  /** Blocks that are no memory channel: typed prompts, assistant prose, harness text. */
  notCaptured: { prompts: number; assistantText: number; harness: number };
  /** Stored (or, dry run, offered) per project key. */
  byProject: Record<string, number>;
  stopped?: 'limit' | 'interrupted';
  /** A problem with the resume state file (it was started over). */
  stateProblem?: string;
}

/** An empty report. */
export function emptyReport(root: string, dryRun: boolean, mend = false): ImportReport {
  return {
    root,
    dryRun,
    ...(mend ? { mend: { mended: 0, unchanged: 0, unknown: 0 } } : {}),
    files: { found: 0, read: 0, unchanged: 0, restarted: 0, olderThanSince: 0 },
    lines: { read: 0, malformed: 0, incompleteTail: 0 },
    pairs: 0,
    stored: 0,
    merged: 0,
    offered: 0,
    skipped: {},
    notCaptured: { prompts: 0, assistantText: 0, harness: 0 },
    byProject: {},
  };
}

/** Where a running import stands. */
export interface ImportProgress {
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly filesDone: number;
  readonly files: number;
  readonly lines: number;
}

/** Seconds left at the rate so far, or undefined before there is a rate. */
export function etaSeconds(progress: ImportProgress, elapsedMs: number): number | undefined {
  if (progress.bytesDone <= 0 || elapsedMs <= 0) return undefined;
  const left = Math.max(0, progress.bytesTotal - progress.bytesDone);
  return Math.ceil((left / progress.bytesDone) * (elapsedMs / 1000));
}

/** `1:05`, `12:00`, `1:02:03`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

const BAR_WIDTH = 24;

/** The progress text: a bar for a terminal, a plain sentence otherwise. */
export function formatProgress(progress: ImportProgress, elapsedMs: number, bar: boolean): string {
  const ratio = progress.bytesTotal > 0 ? Math.min(1, progress.bytesDone / progress.bytesTotal) : 1;
  const percent = `${Math.floor(ratio * 100)}%`;
  const eta = etaSeconds(progress, elapsedMs);
  const etaText = eta === undefined ? 'ETA --:--' : `ETA ${formatDuration(eta)}`;
  const sizes = `${mib(progress.bytesDone)}/${mib(progress.bytesTotal)} MiB`;
  const files = `${progress.filesDone}/${progress.files} files`;
  if (!bar) {
    return `import claude-code: ${percent} (${sizes}, ${files}, ${progress.lines} lines), ${etaText}`;
  }
  const filled = Math.round(ratio * BAR_WIDTH);
  return `import claude-code [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${percent} ${sizes} ${files} ${etaText}`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The final summary, for stdout. */
export function formatReport(report: ImportReport): string {
  const f = report.files;
  const fileParts = [`${f.found} found`, `${f.read} read`];
  if (f.unchanged > 0) fileParts.push(`${f.unchanged} unchanged since the last import`);
  if (f.restarted > 0) fileParts.push(`${f.restarted} read again from the start`);
  if (f.olderThanSince > 0) fileParts.push(`${f.olderThanSince} older than --since`);
  const lineParts = [`${report.lines.read} read`, `${report.lines.malformed} malformed (skipped)`];
  if (report.lines.incompleteTail > 0) {
    lineParts.push(`${report.lines.incompleteTail} incomplete at the end (left for the next run)`);
  }
  const skipped = Object.entries(report.skipped)
    .filter(([, n]) => (n ?? 0) > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([reason, n]) => `${reason} ${n}`);
  const skippedTotal = Object.values(report.skipped).reduce((sum, n) => sum + (n ?? 0), 0);
  const n = report.notCaptured;
  const lines = [
    `Claude Code transcripts in ${report.root}${report.dryRun ? ' (dry run: nothing written)' : ''}` +
      (report.mend !== undefined ? ' (mend: no new memories)' : ''),
    `  files:    ${fileParts.join(', ')}`,
    `  lines:    ${lineParts.join(', ')}`,
    `  tool calls with a result: ${report.pairs}`,
    report.mend !== undefined
      ? `  mended:   ${report.mend.mended} memories given their source, tool or time; ` +
        `${report.mend.unchanged} already complete; ${report.mend.unknown} with no stored memory (left alone)`
      : report.dryRun
        ? `  would offer to the write gate: ${report.offered}`
        : `  stored:   ${report.stored} new ${report.stored === 1 ? 'memory' : 'memories'}, ${report.merged} merged into existing ones`,
    `  skipped:  ${skippedTotal}${skipped.length > 0 ? ` (${skipped.join(', ')})` : ''}`,
    `  not captured (no memory channel): ${plural(n.prompts, 'user prompt')}, ` +
      `${n.assistantText} assistant text blocks, ${plural(n.harness, 'harness message')}`,
  ];
  const projects = Object.entries(report.byProject).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [project, count] of projects) lines.push(`  project ${project}: ${count}`);
  if (report.stateProblem !== undefined) lines.push(`  note: ${report.stateProblem}`);
  if (report.stopped === 'limit') {
    lines.push('Stopped at --limit: run the same command again to continue where it stopped.');
  } else if (report.stopped === 'interrupted') {
    lines.push('Interrupted: run the same command again to continue where it stopped.');
  }
  return `${lines.join('\n')}\n`;
}
