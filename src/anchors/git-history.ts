/**
 * What git's history says about cited files, for anchor checks and backfills: how the index differs
 * from an anchor's commit (renames followed, deletions), which commits since then touched a file, the
 * blob ids a past commit's tree held, and the commit that was current at a given time. Every query is
 * one bounded `git` process paid from a {@link GitBudget}; a query that cannot run resolves to undefined.
 */
import { isCommitId } from '../core/anchors/anchor.js';
import { runGit } from './git-command.js';

/** The `git` processes one check may start, and how long each may take. Mutable: queries spend it. */
export interface GitBudget {
  calls: number;
  readonly timeoutMs: number;
  /** Set when a query could not run: `no_git`, `budget`, `history_unavailable`. */
  shortfall?: string;
}

/** Commits read per history query; older ones are not counted. */
export const MAX_HISTORY_COMMITS = 2000;

async function git(
  dir: string,
  args: readonly string[],
  budget: GitBudget,
): Promise<string | undefined> {
  if (budget.calls <= 0) {
    budget.shortfall ??= 'budget';
    return undefined;
  }
  budget.calls -= 1;
  const result = await runGit(dir, args, { timeoutMs: budget.timeoutMs });
  if (result.ok) return result.stdout;
  budget.shortfall ??= result.reason === 'no_git' ? 'no_git' : 'history_unavailable';
  return undefined;
}

/** One path's change between a commit and the index (`git diff --cached -M`). */
export interface IndexChange {
  /** `M` modified, `D` deleted, `R` renamed, `T` type changed, `A` added, `C` copied. */
  readonly status: string;
  /** The new path of a rename or copy. */
  readonly to?: string;
}

/** How the index differs from `from`, keyed by the path in `from`; renames are followed (-M). */
export async function indexChangesSince(
  dir: string,
  from: string,
  budget: GitBudget,
): Promise<Map<string, IndexChange> | undefined> {
  if (!isCommitId(from)) return undefined;
  const out = await git(
    dir,
    ['diff', '--cached', '-M', '--name-status', '-z', '--no-ext-diff', from],
    budget,
  );
  if (out === undefined) return undefined;
  const fields = out.split('\0');
  const changes = new Map<string, IndexChange>();
  for (let i = 0; i < fields.length; ) {
    const status = fields[i] ?? '';
    if (status === '') break;
    const letter = status[0] ?? '';
    const path = fields[i + 1] ?? '';
    if (letter === 'R' || letter === 'C') {
      changes.set(path, { status: letter, to: fields[i + 2] ?? '' });
      i += 3;
    } else {
      changes.set(path, { status: letter });
      i += 2;
    }
  }
  return changes;
}

/** Commits of `from..HEAD`, newest first, and per path the ones that touched it. */
export interface PathHistory {
  readonly commits: readonly string[];
  readonly touching: ReadonlyMap<string, readonly string[]>;
  /** More than {@link MAX_HISTORY_COMMITS} commits: older ones were not read. */
  readonly truncated: boolean;
}

/** The history of `paths` since `from` (exclusive) up to HEAD. */
export async function historySince(
  dir: string,
  from: string,
  paths: readonly string[],
  budget: GitBudget,
): Promise<PathHistory | undefined> {
  if (!isCommitId(from)) return undefined;
  // --sparse with --full-history lists every commit of the range, touching or not, so a file's last
  // change can be counted in commits back from HEAD; --name-only names only the pathspec's files.
  const out = await git(
    dir,
    [
      'log',
      '-z',
      '--format=%x01%H',
      '--name-only',
      '--full-history',
      '--sparse',
      `--max-count=${MAX_HISTORY_COMMITS}`,
      `${from}..HEAD`,
      '--',
      ...paths,
    ],
    budget,
  );
  if (out === undefined) return undefined;
  const commits: string[] = [];
  const touching = new Map<string, string[]>();
  for (const chunk of out.split('\x01')) {
    const [hash = '', ...files] = chunk.split('\0');
    if (!isCommitId(hash)) continue;
    commits.push(hash);
    for (const raw of files) {
      const file = raw.replace(/^\n/, '');
      if (file === '') continue;
      const list = touching.get(file) ?? [];
      list.push(hash);
      touching.set(file, list);
    }
  }
  return { commits, touching, truncated: commits.length >= MAX_HISTORY_COMMITS };
}

/** HEAD's commit as `git rev-parse` reports it; null before the first commit. */
export async function revParseHead(
  dir: string,
  budget: GitBudget,
): Promise<string | null | undefined> {
  if (budget.calls <= 0) {
    budget.shortfall ??= 'budget';
    return undefined;
  }
  budget.calls -= 1;
  const result = await runGit(dir, ['rev-parse', '--verify', '-q', 'HEAD'], {
    timeoutMs: budget.timeoutMs,
  });
  if (result.ok) {
    const hash = result.stdout.trim();
    return isCommitId(hash) ? hash : undefined;
  }
  if (result.reason === 'no_git') budget.shortfall ??= 'no_git';
  return result.reason === 'failed' ? null : undefined;
}

/** First-parent commits from HEAD, newest first, with their committer time (epoch ms). */
export async function timeline(
  dir: string,
  budget: GitBudget,
): Promise<{ hash: string; at: number }[] | undefined> {
  const out = await git(
    dir,
    ['log', '--first-parent', '--format=%H %ct', `--max-count=${MAX_HISTORY_COMMITS}`, 'HEAD'],
    budget,
  );
  if (out === undefined) return undefined;
  return out
    .split('\n')
    .map((line) => line.split(' '))
    .flatMap(([hash, seconds]) =>
      isCommitId(hash) && seconds !== undefined ? [{ hash, at: Number(seconds) * 1000 }] : [],
    );
}

/** The blobs `commit`'s tree holds at `paths`: path → blob id and size. */
export async function treeBlobs(
  dir: string,
  commit: string,
  paths: readonly string[],
  budget: GitBudget,
): Promise<Map<string, { blobId: string; size: number }> | undefined> {
  if (!isCommitId(commit) || paths.length === 0) return new Map();
  const out = await git(dir, ['ls-tree', '-z', '-l', commit, '--', ...paths], budget);
  if (out === undefined) return undefined;
  const blobs = new Map<string, { blobId: string; size: number }>();
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [, type, object, size] = entry.slice(0, tab).split(/\s+/);
    if (type !== 'blob' || object === undefined || !/^[0-9a-f]{40}$/.test(object)) continue;
    blobs.set(entry.slice(tab + 1), { blobId: object, size: Number(size) });
  }
  return blobs;
}

/** Blob ids git would store for the files at `paths` (filters and autocrlf applied). */
export async function hashObjects(
  dir: string,
  paths: readonly string[],
  budget: GitBudget,
): Promise<Map<string, string> | undefined> {
  if (paths.length === 0) return new Map();
  const out = await git(dir, ['hash-object', '--', ...paths], budget);
  if (out === undefined) return undefined;
  const ids = out.split('\n').filter((line) => line !== '');
  if (ids.length !== paths.length) return undefined;
  return new Map(paths.map((path, i) => [path, ids[i] ?? '']));
}
