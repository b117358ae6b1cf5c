/**
 * Checks file anchors against the project as it is now. Lazy and cached: a file whose stat signature
 * (and, for a non-fresh verdict, HEAD) is unchanged since its last check keeps that verdict without a
 * read; otherwise it is hashed in-process, and only an anchor that looks changed or missing costs `git`
 * (grouped by the anchor's commit: one index diff with rename detection and one log per group). All of
 * it is paid from a {@link CheckBudget}: what the budget cannot pay is reported with a `budget` note,
 * never guessed, and not cached, so a later run finishes it. No tree walk, ever.
 */
import { join } from 'node:path';

import {
  type AnchorCheck,
  type AnchorVerdict,
  type FileAnchor,
  isAnchorPath,
} from '../core/anchors/anchor.js';
import { containsWord } from '../core/anchors/cited-symbols.js';
import type { MemoryId } from '../core/memory.js';
import {
  fingerprintFile,
  MAX_ANCHOR_FILE_BYTES,
  statPath,
  type StatReading,
} from './fingerprint.js';
import {
  type GitBudget,
  hashObjects,
  historySince,
  indexChangesSince,
  type PathHistory,
} from './git-history.js';
import type { ProjectRoot } from './project-root.js';

/** What one check may spend. Mutable: the check spends it. */
export interface CheckBudget {
  /** Existence checks (stat calls). */
  stats: number;
  /** Bytes of files hashed. */
  hashBytes: number;
  readonly git: GitBudget;
}

/**
 * A hook's budget (threat model S6): 300 stats, 8 MiB hashed, at most 4 `git` processes of 400 ms each.
 * With every verdict cached, a session start spends one stat per cited file and nothing else.
 */
export function hookBudget(): CheckBudget {
  return { stats: 300, hashBytes: 8 * 1024 * 1024, git: { calls: 4, timeoutMs: 400 } };
}

/**
 * An explicit recall's budget (CLI, MCP): a person or model waits for it, so `git` gets a few calls of
 * at most 2 s; whatever it cannot finish is labelled from the working tree alone and finished later.
 */
export function recallBudget(): CheckBudget {
  return { stats: 1000, hashBytes: 64 * 1024 * 1024, git: { calls: 8, timeoutMs: 2000 } };
}

/** The budget of an explicit command (`mnemo stale`, `explain`, `reverify`): finish the job. */
export function fullBudget(): CheckBudget {
  return {
    stats: Number.POSITIVE_INFINITY,
    hashBytes: Number.POSITIVE_INFINITY,
    git: { calls: Number.POSITIVE_INFINITY, timeoutMs: 15_000 },
  };
}

/** One anchor to check, with its cached verdict. */
export interface AnchorToCheck {
  readonly memoryId: MemoryId;
  readonly anchor: FileAnchor;
  readonly cached?: AnchorCheck;
}

export interface VerifyResult {
  /** Keyed by {@link anchorKey}. */
  readonly verdicts: ReadonlyMap<string, AnchorVerdict>;
  /** Verdicts worth caching (complete, not racy). */
  readonly checks: readonly AnchorCheck[];
}

/** The key of one anchor of one memory. */
export function anchorKey(memoryId: MemoryId, path: string): string {
  return `${memoryId}\u0000${path}`;
}

interface Observation {
  readonly stat: StatReading | undefined;
  /** Filled lazily: the blob id and text of the file, or why there are none. */
  print?: { blobId: string; text: string } | { why: string };
}

interface Pending {
  readonly entry: AnchorToCheck;
  readonly observation: Observation;
  verdict: AnchorVerdict;
}

/** Checks `entries` against `root` at `head`. */
export async function verifyAnchors(
  root: ProjectRoot,
  head: string | null,
  entries: readonly AnchorToCheck[],
  budget: CheckBudget,
  now: Date,
): Promise<VerifyResult> {
  const observations = new Map<string, Observation>();
  const observe = (path: string): Observation => {
    let seen = observations.get(path);
    if (seen === undefined) {
      const stat = budget.stats > 0 ? statPath(join(root.dir, path), now.getTime()) : undefined;
      if (stat !== undefined) budget.stats -= 1;
      seen = { stat };
      observations.set(path, seen);
    }
    return seen;
  };
  const verdicts = new Map<string, AnchorVerdict>();
  const pending: Pending[] = [];
  for (const entry of entries) {
    const observation = observe(entry.anchor.path);
    const key = anchorKey(entry.memoryId, entry.anchor.path);
    const reused = reusable(entry.cached, observation.stat, head);
    if (reused !== undefined) {
      verdicts.set(key, reused);
      continue;
    }
    pending.push({
      entry,
      observation,
      verdict: localVerdict(entry.anchor, observation, root, budget),
    });
  }
  await addHistory(root, head, pending, budget);
  const checks: AnchorCheck[] = [];
  for (const item of pending) {
    const key = anchorKey(item.entry.memoryId, item.entry.anchor.path);
    verdicts.set(key, item.verdict);
    const stat = item.observation.stat;
    if (stat === undefined || stat.racy || item.verdict.note === 'budget') continue;
    checks.push({
      memoryId: item.entry.memoryId,
      path: item.entry.anchor.path,
      checkedAt: now.toISOString(),
      signature: stat.signature,
      head,
      verdict: item.verdict,
    });
  }
  return { verdicts, checks };
}

/** The cached verdict when the file (and, unless it was fresh, HEAD) is as it was checked. */
function reusable(
  cached: AnchorCheck | undefined,
  stat: StatReading | undefined,
  head: string | null,
): AnchorVerdict | undefined {
  if (cached === undefined || stat === undefined || cached.signature !== stat.signature) {
    return undefined;
  }
  return cached.verdict.state === 'fresh' || cached.head === head ? cached.verdict : undefined;
}

/** What the working tree alone says: fresh, changed (with lost symbols), missing or unknown. */
function localVerdict(
  anchor: FileAnchor,
  observation: Observation,
  root: ProjectRoot,
  budget: CheckBudget,
): AnchorVerdict {
  const { stat } = observation;
  if (stat === undefined) return { state: 'unknown', note: 'budget' };
  if (stat.kind === 'absent') return { state: 'missing' };
  if (stat.kind === 'other') return { state: 'unknown', note: 'not_a_file' };
  if (observation.print === undefined) {
    if (stat.size > budget.hashBytes) return { state: 'unknown', note: 'budget' };
    budget.hashBytes -= stat.size;
    const print = fingerprintFile(join(root.dir, anchor.path), stat.size, MAX_ANCHOR_FILE_BYTES);
    observation.print =
      print.kind === 'file' ? { blobId: print.blobId, text: print.text } : { why: print.kind };
  }
  const print = observation.print;
  if ('why' in print) return { state: 'unknown', note: print.why };
  if (print.blobId === anchor.blobId) return { state: 'fresh' };
  const missingSymbols = anchor.symbols.filter((symbol) => !containsWord(print.text, symbol));
  return missingSymbols.length === 0 ? { state: 'changed' } : { state: 'changed', missingSymbols };
}

/** Adds what git knows to changed and missing verdicts: rename, deletion, commits, range. */
async function addHistory(
  root: ProjectRoot,
  head: string | null,
  pending: readonly Pending[],
  budget: CheckBudget,
): Promise<void> {
  const open = pending.filter(
    (p) => p.verdict.state === 'changed' || p.verdict.state === 'missing',
  );
  if (open.length === 0) return;
  if (root.git === null) {
    // Outside git nothing can follow a rename: a file that is gone was deleted.
    for (const item of open)
      if (item.verdict.state === 'missing') item.verdict = { state: 'deleted' };
    return;
  }
  const groups = new Map<string | null, Pending[]>();
  for (const item of open) {
    const from = head === null ? null : item.entry.anchor.commit;
    groups.set(from, [...(groups.get(from) ?? []), item]);
  }
  for (const [from, items] of groups) {
    if (from === null) {
      // No commit to compare with (anchored before the first commit, or none now): the working tree
      // is all there is, and a file that is gone was deleted.
      for (const item of items) {
        item.verdict = {
          ...(item.verdict.state === 'missing' ? { state: 'deleted' as const } : item.verdict),
          note: 'no_history',
        };
      }
      continue;
    }
    await groupHistory(root, from, head ?? from, items, budget);
  }
}

async function groupHistory(
  root: ProjectRoot,
  from: string,
  head: string,
  items: readonly Pending[],
  budget: CheckBudget,
): Promise<void> {
  const changes = await indexChangesSince(root.dir, from, budget.git);
  const paths = [...new Set(items.map((item) => item.entry.anchor.path))];
  const history =
    changes === undefined ? undefined : await historySince(root.dir, from, paths, budget.git);
  if (changes === undefined || history === undefined) {
    const note = budget.git.shortfall ?? 'history_unavailable';
    for (const item of items) item.verdict = { ...item.verdict, note };
    return;
  }
  const filtered = items.filter(
    (item) =>
      item.verdict.state === 'changed' &&
      item.entry.anchor.source === 'commit' &&
      changes.get(item.entry.anchor.path) === undefined &&
      (history.touching.get(item.entry.anchor.path) ?? []).length === 0,
  );
  // A fingerprint read from a commit's tree is git's normalised blob; the file on disk may differ only
  // by what a filter or autocrlf does on commit. Ask git how it would store the file.
  const normalised = await hashObjects(
    root.dir,
    filtered.map((item) => item.entry.anchor.path),
    budget.git,
  );
  for (const item of items) {
    const { anchor } = item.entry;
    if (normalised?.get(anchor.path) === anchor.blobId) {
      item.verdict = { state: 'fresh' };
      continue;
    }
    item.verdict = withHistory(
      item.verdict,
      changes.get(anchor.path),
      history,
      anchor.path,
      from,
      head,
    );
  }
}

function withHistory(
  local: AnchorVerdict,
  change: { status: string; to?: string } | undefined,
  history: PathHistory,
  path: string,
  from: string,
  head: string,
): AnchorVerdict {
  const touching = history.touching.get(path) ?? [];
  const newest = touching[0];
  const facts = {
    range: { from, to: head },
    commits: touching.length,
    ...(newest === undefined
      ? { uncommitted: true }
      : { commitsAgo: history.commits.indexOf(newest) + 1 }),
    ...(history.truncated ? { note: 'history_truncated' } : {}),
  };
  if (local.state === 'missing') {
    if (change?.status === 'R') {
      // The new path is git's, i.e. any file name: only a plain project-relative one is repeated.
      const to = change.to !== undefined && isPlainPath(change.to) ? { renamedTo: change.to } : {};
      return { state: 'renamed', ...to, ...facts };
    }
    if (change?.status === 'D') return { state: 'deleted', ...facts };
    // Still tracked: deleted from the working tree only, or moved without git (a plain `mv`).
    return { state: 'missing', ...facts };
  }
  return { ...local, ...facts };
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/** A project-relative path without control characters, safe to repeat in a one-line label. */
function isPlainPath(path: string): boolean {
  return isAnchorPath(path) && !CONTROL.test(path);
}
