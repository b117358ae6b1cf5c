/**
 * The terminal form of a memory's anchors and of its injection verdict (`mnemo explain`, `get`, `stale`,
 * `reverify`): which files it cites, what happened to each since, and whether session start and prompt
 * recall inject it, withhold it, and why.
 */
import type { AnchorLine, AnchorReport } from '../anchors/anchor-report.js';
import type { AnchorVerdict } from '../core/anchors/anchor.js';
import type { WithheldReason } from '../core/injection/injectable.js';

/** Why a memory is not injected proactively, for a person. */
export const WITHHELD_TEXT: Readonly<Record<WithheldReason, string>> = {
  origin_not_allowlisted: 'its origin is not allowlisted for proactive injection (recall only)',
  tainted: 'a model wrote it while its session held untrusted content',
  quarantine_pending: 'it awaits review (`mnemo approve <id>` or `mnemo reject <id>`)',
  quarantine_rejected: 'a person rejected it',
  superseded: 'a newer memory supersedes it',
  out_of_scope: 'it belongs to another project',
  already_injected: 'this session was already shown it',
  cited_files_deleted:
    'every file it cites was deleted (`mnemo reverify <id>` if it still holds, `mnemo forget <id>` if not)',
};

const STATUS_TEXT: Readonly<Record<AnchorReport['status'], string>> = {
  pending: 'pending: written before anchors existed; `mnemo stale` resolves them',
  unanchored: 'none: it cites no file that existed when it was written (never stale)',
  fresh: 'fresh: every cited file is as it was',
  stale: 'stale',
  gone: 'gone',
  unchecked: 'not checked from here (run from the project it belongs to, or pass --project <dir>)',
};

/** `a1b2c3d..e4f5a6b, 2 commits touched it`, or '' when git told nothing. */
export function historyText(verdict: AnchorVerdict | undefined): string {
  if (verdict?.range === undefined) return verdict?.note === undefined ? '' : ` (${verdict.note})`;
  const range = `${verdict.range.from.slice(0, 7)}..${verdict.range.to.slice(0, 7)}`;
  const commits = verdict.commits ?? 0;
  return ` (${range}, ${commits} ${commits === 1 ? 'commit' : 'commits'} touched it)`;
}

function fingerprint(line: AnchorLine): string {
  if (line.kind !== 'file') return '';
  const at =
    line.commit === null || line.commit === undefined ? '' : ` @ ${line.commit.slice(0, 7)}`;
  const symbols =
    (line.symbols ?? []).length === 0 ? '' : `, symbols ${(line.symbols ?? []).join(' ')}`;
  const cited =
    line.citedAs === null || line.citedAs === undefined ? '' : `, cited as ${line.citedAs}`;
  return `      blob ${line.blobId?.slice(0, 12) ?? '?'}${at}${line.source === 'commit' ? ' (from the commit)' : ''}${symbols}${cited}`;
}

/** The anchors block: status, how they were resolved, then one line per cited path. */
export function formatAnchors(report: AnchorReport, indent = ''): string {
  const head =
    report.status === 'stale'
      ? `stale: ${report.label ?? ''}`
      : report.status === 'gone'
        ? `gone: ${report.label ?? ''}; every cited file was deleted`
        : STATUS_TEXT[report.status];
  const lines = [`${indent}anchors: ${head}`];
  if (report.how !== null) {
    const where = report.checkedIn === null ? '' : `; checked against ${report.checkedIn}`;
    lines.push(`${indent}  resolved ${report.resolvedAt ?? ''} (${report.how})${where}`);
  }
  for (const line of report.anchors) {
    const what =
      line.kind === 'file' ? `${line.description}${historyText(line.verdict)}` : line.description;
    lines.push(`${indent}  ${line.path}: ${what}`);
    const print = fingerprint(line);
    if (print !== '') lines.push(`${indent}${print}`);
  }
  return `${lines.join('\n')}\n`;
}
