/**
 * The result of an install or uninstall, and its printed form: a unified diff per changed file, then one
 * line per file saying what happened. Shared by both commands so they read alike.
 */
import { createTwoFilesPatch } from 'diff';

import { MemoryError } from '../core/errors.js';
import { CLIENT_NAMES, type ClientId } from '../core/install/clients.js';
import type { InstallScope } from './install-targets.js';

/** One file's change. `before`/`after` undefined: the file does not exist on that side. */
export interface FileChange {
  path: string;
  before: string | undefined;
  after: string | undefined;
  /** The backup taken before writing, when there was something to back up. */
  backup?: string;
  /** Why it changed the way it did, when that is not obvious. */
  note?: string;
}

/** What a run did (or, with `dryRun`, would do). */
export interface InstallReport {
  action: 'install' | 'uninstall';
  client: ClientId;
  scope: InstallScope;
  /** The launcher the files run: its path, the bin it runs, and whether this run (re)wrote or removed it. */
  launcher?: { path: string; target?: string; written?: boolean; removed?: boolean };
  dryRun: boolean;
  root?: string;
  changed: FileChange[];
  /** Files already as they should be. */
  unchanged: string[];
  notes: string[];
}

/** Decodes file bytes as strict UTF-8; `label` names the file in the error. */
export function decodeText(bytes: Uint8Array, label: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${label} is not UTF-8 text. Fix or move it and run the command again; nothing was written.`,
      { cause: error },
    );
  }
}

/** The report as printed: diffs first, then a summary. */
export function renderReport(report: InstallReport): string {
  const out: string[] = [];
  for (const change of report.changed) out.push(renderDiff(change));
  const verb = report.action === 'install' ? 'Installed into' : 'Uninstalled from';
  const would = report.action === 'install' ? 'Would install into' : 'Would uninstall from';
  for (const change of report.changed) {
    const what =
      change.after === undefined
        ? 'removed (mnemo created it)'
        : change.before === undefined
          ? 'created'
          : 'updated';
    out.push(`${report.dryRun ? would : verb} ${change.path}: ${what}`);
    if (change.backup !== undefined) out.push(`  backup: ${change.backup}`);
    if (change.note !== undefined) out.push(`  note: ${change.note}`);
  }
  for (const path of report.unchanged) out.push(`Unchanged: ${path}`);
  const launcher = report.launcher;
  if (launcher?.written === true)
    out.push(`Launcher ${launcher.path} runs ${launcher.target ?? '?'}`);
  else if (launcher?.removed === true) out.push(`Removed the launcher ${launcher.path}`);
  else if (launcher?.target !== undefined && !report.dryRun) {
    out.push(`Launcher ${launcher.path} already runs ${launcher.target}`);
  }
  const who =
    report.client === 'claude-code'
      ? `${report.scope} scope`
      : `${CLIENT_NAMES[report.client]}, ${report.scope} scope`;
  if (report.changed.length === 0) {
    out.push(
      report.action === 'install'
        ? `mnemo is already installed (${who}); nothing changed.`
        : `mnemo is not installed (${who}); nothing changed.`,
    );
  }
  for (const note of report.notes) out.push(`Note: ${note}`);
  if (report.dryRun) out.push('Dry run: nothing was written.');
  return `${out.join('\n')}\n`;
}

function renderDiff(change: FileChange): string {
  const patch = createTwoFilesPatch(
    change.before === undefined ? '/dev/null' : change.path,
    change.after === undefined ? '/dev/null' : change.path,
    change.before ?? '',
    change.after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
  // jsdiff opens with an `Index:`-style rule line; the `---`/`+++` headers are what diff tools read.
  return patch.replace(/^=+\n/, '').trimEnd();
}
