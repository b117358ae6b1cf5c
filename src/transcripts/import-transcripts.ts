/**
 * The transcripts folder reads Claude Code's session transcripts (hook-time prompt reads and the bulk
 * import). It only ever opens them for reading, reaches the store through `app` and the write service
 * (never a backend), and keeps no transcript text of its own.
 *
 * `mnemo import claude-code`: reads every Claude Code transcript under a projects directory, whole files
 * line by line, and captures each tool call + result pair exactly as the live hooks would have (see
 * capture-pair.ts). Typed prompts and assistant prose are counted and never stored: the live path stores
 * neither. Malformed lines are counted and skipped.
 *
 * Idempotent and resumable: per file, the resume state (import-state.ts) records how far it was read and
 * where to pick up, so a second run reads nothing unchanged and an interrupted run continues where it
 * stopped; what a crash re-reads is merged by the store's content-hash dedupe, never duplicated. The
 * transcripts are only ever opened for reading.
 */
import type { App } from '../app/open-app.js';
import { captureConfigFrom } from '../capture/capture-config.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { capturePair, FloodTracker, type PairContext } from './capture-pair.js';
import { findTranscripts, type TranscriptFile } from './find-transcripts.js';
import { emptyReport, type ImportProgress, type ImportReport } from './import-report.js';
import {
  anchorAt,
  type FilePlan,
  type ImportState,
  loadImportState,
  planFile,
  saveImportState,
} from './import-state.js';
import { readLines } from './read-lines.js';
import { parseTranscriptLine, type ToolUse } from './transcript-entry.js';

/** What to import. */
export interface ImportOptions {
  /** The projects directory (or one project folder). */
  readonly root: string;
  readonly since?: Date;
  /** `--project`: one project key for everything. */
  readonly projectKey?: string;
  readonly dryRun: boolean;
  /** Stop after this many lines (a bounded run; the next run resumes). */
  readonly limitLines?: number;
  readonly statePath: string;
  /**
   * Mend the rows an earlier import stored (transcripts/mend-pair.ts): every file is read whole again,
   * nothing new is written, and the resume state is neither used nor changed.
   */
  readonly mend?: boolean;
}

/** Callbacks of a running import. */
export interface ImportHooks {
  onProgress?(progress: ImportProgress): void;
  /** Polled between lines: true stops after the current line, with the state saved. */
  shouldStop?(): boolean;
}

/** Longest transcript line read; a longer one is counted malformed and skipped. */
export const MAX_TRANSCRIPT_LINE_BYTES = 32 * 1024 * 1024;
/** A call unanswered after this many lines, or beyond this many waiting, is given up as unpaired. */
const PENDING_MAX_LINES = 10_000;
const PENDING_MAX = 256;
/** The state is saved this often while a file is read (and always at its end or a stop). */
const SAVE_EVERY_LINES = 1000;

interface Pending {
  readonly use: ToolUse;
  readonly start: number;
  readonly lineNo: number;
  readonly sessionId: string | undefined;
  readonly cwd: string | undefined;
}

interface Planned {
  readonly file: TranscriptFile;
  readonly plan: Extract<FilePlan, { action: 'read' }>;
}

function filterKey(options: ImportOptions): string {
  return JSON.stringify({
    since: options.since?.toISOString() ?? null,
    project: options.projectKey ?? null,
  });
}

/** Runs the import. Store errors stop it with the state saved up to the last handled line. */
export async function importTranscripts(
  app: App,
  options: ImportOptions,
  hooks: ImportHooks = {},
): Promise<ImportReport> {
  const mend = options.mend === true;
  const report = emptyReport(options.root, options.dryRun, mend);
  const files = await findTranscripts(options.root);
  report.files.found = files.length;
  const loaded = loadImportState(options.statePath);
  if (loaded.problem !== undefined) {
    report.stateProblem = loaded.problem;
    app.log.warn('import: resume state started over', { problem: loaded.problem });
  }
  const state: ImportState = loaded.state;
  const filter = filterKey(options);
  const planned: Planned[] = [];
  for (const file of files) {
    if (options.since !== undefined && file.mtimeMs < options.since.getTime()) {
      report.files.olderThanSince += 1;
      continue;
    }
    const plan: FilePlan = mend
      ? { action: 'read', from: 0, line: 1, doneToolUses: [], restarted: false }
      : planFile(file, state.files[file.path], filter);
    if (plan.action === 'skip') report.files.unchanged += 1;
    else planned.push({ file, plan });
  }

  const writeDeps = writeDepsFrom(app);
  const ctx: PairContext = {
    app,
    // The wall-clock budget is lifted here and applied in transcript time by the tracker instead.
    deps: {
      ...writeDeps,
      policy: {
        ...writeDeps.policy,
        floodLimit: { ...writeDeps.policy.floodLimit, maxPerOrigin: {} },
      },
    },
    originConfig: writeDeps.policy.originConfig,
    capture: captureConfigFrom(app.config),
    flood: new FloodTracker(writeDeps.policy.floodLimit),
    projectKey: options.projectKey,
    since: options.since?.getTime(),
    dryRun: options.dryRun,
    projects: new Map(),
    lastCommandKind: new Map(),
    ...(mend ? { mend: new Map() } : {}),
  };
  const progress = {
    bytesDone: 0,
    bytesTotal: planned.reduce((sum, p) => sum + (p.file.size - p.plan.from), 0),
    filesDone: 0,
    files: planned.length,
    lines: 0,
  };
  for (const { file, plan } of planned) {
    if (report.stopped !== undefined) break;
    report.files.read += 1;
    if (plan.restarted) report.files.restarted += 1;
    await importFile(ctx, file, plan, { report, state, options, hooks, progress, filter });
    progress.filesDone += 1;
    hooks.onProgress?.({ ...progress });
  }
  return report;
}

interface FileRun {
  readonly report: ImportReport;
  readonly state: ImportState;
  readonly options: ImportOptions;
  readonly hooks: ImportHooks;
  readonly progress: ImportProgress & { bytesDone: number; lines: number };
  readonly filter: string;
}

async function importFile(
  ctx: PairContext,
  file: TranscriptFile,
  plan: Planned['plan'],
  run: FileRun,
) {
  const { report, hooks, options } = run;
  const pending = new Map<string, Pending>();
  const done = new Set(plan.doneToolUses);
  const completed: { id: string; start: number }[] = [];
  let position = plan.from;
  let nextLine = plan.line;
  let sinceSave = 0;

  const save = (): void => {
    if (options.dryRun || options.mend === true) return;
    let offset = position;
    let line = nextLine;
    for (const p of pending.values()) {
      if (p.start < offset) {
        offset = p.start;
        line = p.lineNo;
      }
    }
    run.state.files[file.path] = {
      size: file.size,
      mtimeMs: file.mtimeMs,
      readTo: position,
      offset,
      line,
      anchor: anchorAt(file.path, offset),
      doneToolUses: completed.filter((c) => c.start >= offset).map((c) => c.id),
      filter: run.filter,
    };
    saveImportState(options.statePath, run.state);
  };

  try {
    for await (const raw of readLines(file.path, {
      start: plan.from,
      end: file.size,
      firstLineNo: plan.line,
      maxLineBytes: MAX_TRANSCRIPT_LINE_BYTES,
    })) {
      if (hooks.shouldStop?.() === true) {
        report.stopped = 'interrupted';
        break;
      }
      if (options.limitLines !== undefined && run.progress.lines >= options.limitLines) {
        report.stopped = 'limit';
        break;
      }
      const entry = raw.text === undefined ? undefined : parseTranscriptLine(raw.text);
      if (!raw.terminated && entry === undefined) {
        // Probably still being written: left for the next run, not counted as malformed.
        report.lines.incompleteTail += 1;
        break;
      }
      report.lines.read += 1;
      run.progress.lines += 1;
      if (entry === undefined) {
        report.lines.malformed += 1;
        ctx.app.log.debug('import: malformed transcript line skipped', {
          file: file.path,
          line: raw.lineNo,
          problem: raw.problem ?? 'not_json',
        });
      } else {
        if (entry.prompt !== undefined) report.notCaptured.prompts += 1;
        if (entry.harnessText) report.notCaptured.harness += 1;
        report.notCaptured.assistantText += entry.assistantText;
        for (const use of entry.toolUses) {
          pending.set(use.id, {
            use,
            start: raw.start,
            lineNo: raw.lineNo,
            sessionId: entry.sessionId,
            cwd: entry.cwd,
          });
        }
        for (const result of entry.toolResults) {
          const call = pending.get(result.toolUseId);
          if (call === undefined) {
            bump(report, 'unpaired');
            continue;
          }
          if (!done.has(call.use.id)) {
            const outcome = await capturePair(ctx, {
              use: call.use,
              result,
              sessionId: entry.sessionId ?? call.sessionId ?? null,
              cwd: entry.cwd ?? call.cwd,
              at: entry.at,
            });
            report.pairs += 1;
            if (outcome.result === 'skipped') bump(report, outcome.reason);
            else if (isMendResult(outcome.result)) {
              if (report.mend !== undefined) report.mend[outcome.result] += 1;
              if (outcome.result === 'mended') {
                report.byProject[outcome.projectKey] =
                  (report.byProject[outcome.projectKey] ?? 0) + 1;
              }
            } else {
              report[outcome.result] += 1;
              report.byProject[outcome.projectKey] =
                (report.byProject[outcome.projectKey] ?? 0) + 1;
            }
          }
          // Only now: a pair whose write failed stays pending, so a resume offers it again.
          pending.delete(result.toolUseId);
          completed.push({ id: call.use.id, start: call.start });
        }
        giveUpStale(pending, raw.lineNo, report);
      }
      position = raw.end;
      nextLine = raw.lineNo + 1;
      run.progress.bytesDone += raw.end - raw.start;
      hooks.onProgress?.({ ...run.progress });
      if (++sinceSave >= SAVE_EVERY_LINES) {
        save();
        sinceSave = 0;
      }
    }
  } catch (error) {
    try {
      save();
    } catch (saveError) {
      // The store error is the one to report; a resume then re-offers more, which dedupe absorbs.
      ctx.app.log.error('import: resume state not saved', { error: String(saveError) });
    }
    if (!isMemoryError(error)) throw error;
    throw new MemoryError(
      error.code,
      `${error.message} The import stopped at ${file.path} line ${nextLine}; what it stored is kept. ` +
        'Run the same command again to continue from there.',
      { cause: error },
    );
  }
  save();
}

function isMendResult(result: string): result is 'mended' | 'unchanged' | 'unknown' {
  return result === 'mended' || result === 'unchanged' || result === 'unknown';
}

function bump(report: ImportReport, reason: keyof ImportReport['skipped']): void {
  report.skipped[reason] = (report.skipped[reason] ?? 0) + 1;
}

/** Calls whose result never came (a crashed session) must not pin the resume point forever. */
function giveUpStale(pending: Map<string, Pending>, lineNo: number, report: ImportReport): void {
  for (const [id, call] of pending) {
    if (pending.size <= PENDING_MAX && call.lineNo >= lineNo - PENDING_MAX_LINES) break;
    pending.delete(id);
    bump(report, 'unpaired');
  }
}
