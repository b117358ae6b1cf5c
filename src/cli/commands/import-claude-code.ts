import { homedir } from 'node:os';
import { resolve } from 'node:path';

import { MemoryError } from '../../core/errors.js';
import { defaultProjectsDir } from '../../transcripts/find-transcripts.js';
import {
  formatProgress,
  formatReport,
  type ImportProgress,
} from '../../transcripts/import-report.js';
import { importStatePath } from '../../transcripts/import-state.js';
import { importTranscripts } from '../../transcripts/import-transcripts.js';
import type { CliContext } from '../cli-context.js';
import type { OutputStream } from '../cli-io.js';
import { writeOut } from '../cli-io.js';
import { parseDateOption } from '../date-option.js';
import { projectKeyFromOption } from '../project-option.js';

export interface ImportClaudeCodeCliOptions {
  path?: string;
  since?: string;
  project?: string;
  dryRun?: boolean;
  /** Stop after this many transcript lines; the next run resumes. */
  limit?: number;
  /** Fill provenance on rows an earlier import stored; writes nothing new (transcripts/mend-pair.ts). */
  mend?: boolean;
}

/** A redraw of the bar at most this often; a plain line this often when stderr is not a terminal. */
const BAR_REDRAW_MS = 100;
const PLAIN_LINE_MS = 5000;

/** `--since`: any date `parseDateOption` takes (an ISO date, `yesterday`, `3d`...). */
export function parseSince(raw: string, now: Date = new Date()): Date {
  return new Date(parseDateOption('--since', raw, 'start', now));
}

function progressReporter(stream: OutputStream, tty: boolean) {
  const started = Date.now();
  // A terminal gets the bar at once; a log gets its first line only once the run is worth watching.
  let last = tty ? 0 : started;
  let drawn = false;
  return {
    update(progress: ImportProgress, force = false): void {
      const now = Date.now();
      if (!force && now - last < (tty ? BAR_REDRAW_MS : PLAIN_LINE_MS)) return;
      last = now;
      const text = formatProgress(progress, now - started, tty);
      stream.write(tty ? `\r${text}` : `${text}\n`);
      drawn = tty;
    },
    finish(): void {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}

/**
 * `mnemo import claude-code [--path dir] [--since date] [--project dir] [--dry-run] [--limit n]`:
 * captures the tool calls of Claude Code transcripts as the live hooks would have. Progress on stderr
 * (a bar on a terminal, a line every few seconds otherwise), the summary on stdout. Ctrl-C stops after
 * the current line with the resume state saved.
 */
export async function importClaudeCode(
  ctx: CliContext,
  options: ImportClaudeCodeCliOptions,
): Promise<void> {
  const env = ctx.io.env;
  const root =
    options.path === undefined
      ? defaultProjectsDir(env, env['HOME']?.trim() || homedir())
      : resolve(ctx.io.cwd, options.path);
  if (options.mend === true && (options.dryRun === true || options.limit !== undefined)) {
    throw new MemoryError(
      'INVALID_INPUT',
      '--mend reads every transcript whole and changes only provenance; run it without --dry-run and --limit.',
    );
  }
  const since = options.since === undefined ? undefined : parseSince(options.since);
  const projectKey =
    options.project === undefined ? undefined : projectKeyFromOption(ctx.io, options.project);
  const app = await ctx.openApp();
  const tty = (ctx.io.stderr as { isTTY?: boolean }).isTTY === true;
  const progress = progressReporter(ctx.io.stderr, tty);
  let stop = false;
  const onSigint = (): void => {
    stop = true;
  };
  process.once('SIGINT', onSigint);
  let latest: ImportProgress | undefined;
  try {
    const report = await importTranscripts(
      app,
      {
        root,
        since,
        projectKey,
        dryRun: options.dryRun === true,
        limitLines: options.limit,
        statePath: importStatePath(app.config.home),
        mend: options.mend === true,
      },
      {
        onProgress: (p) => {
          latest = p;
          progress.update(p);
        },
        shouldStop: () => stop,
      },
    );
    if (latest !== undefined && tty) progress.update(latest, true);
    progress.finish();
    app.log.info('import claude-code', {
      root,
      dryRun: report.dryRun,
      files: report.files,
      lines: report.lines,
      stored: report.stored,
      merged: report.merged,
      skipped: report.skipped,
      stopped: report.stopped ?? null,
    });
    await writeOut(ctx.io.stdout, formatReport(report));
  } finally {
    progress.finish();
    process.removeListener('SIGINT', onSigint);
  }
}
