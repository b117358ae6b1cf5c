/**
 * The backfill of memories written before anchors existed (or without a project directory): their
 * citations are resolved against the project's history at the time each memory was written, so a
 * memory from last month citing src/db.ts is anchored to src/db.ts as it was then, and a change or a
 * deletion since makes it stale, as it would have if it had been anchored at write time. A path the
 * commit of that time did not hold but the working tree holds now is anchored to the file as it is now
 * (it may have existed uncommitted); outside git, or when history cannot be read, every citation is
 * resolved against the working tree now. Sets produced here carry `how: 'backfill'`.
 */
import type { Anchor, AnchorCheck } from '../core/anchors/anchor.js';
import { MAX_ANCHORS } from '../core/anchors/anchor.js';
import { citedFileNames, citedPaths } from '../core/anchors/cited-paths.js';
import { candidateSymbols } from '../core/anchors/cited-symbols.js';
import type { Memory, MemoryId } from '../core/memory.js';
import { anchorAgainst, readWorktreeFile, type ResolvedAnchors } from './anchor-content.js';
import { timeline, treeBlobs } from './git-history.js';
import type { ProjectRoot } from './project-root.js';
import type { CheckBudget } from './verify-anchors.js';

/** A backfilled set and the commit its fingerprints were read from (null: the working tree). */
export interface Backfilled {
  readonly set: ResolvedAnchors;
  readonly commit: string | null;
}

/**
 * Resolves the anchors of `memories` (all of `root`'s project). A memory the budget cannot pay for is
 * left out of the result and stays pending.
 */
export async function backfillAnchors(
  root: ProjectRoot,
  head: string | null,
  memories: readonly Memory[],
  budget: CheckBudget,
  now: Date,
): Promise<Map<MemoryId, Backfilled>> {
  const out = new Map<MemoryId, Backfilled>();
  if (memories.length === 0) return out;
  const worktreeOnly = (memory: Memory): void => {
    out.set(memory.id, {
      set: anchorAgainst(root, memory.content, now, { how: 'backfill', head }),
      commit: null,
    });
  };
  if (root.git === null || head === null) {
    memories.forEach(worktreeOnly);
    return out;
  }
  const commits = await timeline(root.dir, budget.git);
  if (commits === undefined) {
    // Out of budget: try again later. Anything else (no git, unreadable history): the working tree.
    if (budget.git.shortfall !== 'budget') memories.forEach(worktreeOnly);
    return out;
  }
  const groups = new Map<string | null, Memory[]>();
  for (const memory of memories) {
    const commit = commitAt(commits, Date.parse(memory.createdAt));
    groups.set(commit, [...(groups.get(commit) ?? []), memory]);
  }
  for (const [commit, group] of groups) {
    if (commit === null) {
      group.forEach(worktreeOnly);
      continue;
    }
    const cited = new Map(group.map((memory) => [memory.id, citationsOf(memory, root)]));
    const blobs = await treeBlobs(
      root.dir,
      commit,
      [...new Set([...cited.values()].flat())],
      budget.git,
    );
    if (blobs === undefined) {
      if (budget.git.shortfall !== 'budget') group.forEach(worktreeOnly);
      continue;
    }
    for (const memory of group) {
      out.set(memory.id, {
        set: fromCommit(root, head, commit, memory, cited.get(memory.id) ?? [], blobs, now),
        commit,
      });
    }
  }
  return out;
}

/**
 * The newest first-parent commit made at or before `at`; null when the memory is older than every
 * commit read (or its time is unreadable), so only the working tree can say what it cited.
 */
export function commitAt(
  commits: readonly { hash: string; at: number }[],
  at: number,
): string | null {
  if (Number.isNaN(at)) return null;
  return commits.find((commit) => commit.at <= at)?.hash ?? null;
}

function citationsOf(memory: Memory, root: ProjectRoot): string[] {
  return [...citedPaths(memory.content, root.dir), ...citedFileNames(memory.content)];
}

function fromCommit(
  root: ProjectRoot,
  head: string,
  commit: string,
  memory: Memory,
  cited: readonly string[],
  blobs: ReadonlyMap<string, { blobId: string; size: number }>,
  now: Date,
): ResolvedAnchors {
  const bare = new Set(citedFileNames(memory.content));
  const symbols = candidateSymbols(memory.content);
  const anchors: Anchor[] = [];
  const checks: Omit<AnchorCheck, 'memoryId'>[] = [];
  for (const path of cited) {
    if (anchors.length >= MAX_ANCHORS || anchors.some((a) => a.path === path)) continue;
    const then = blobs.get(path);
    const current = readWorktreeFile(root, [path], head, symbols, now);
    if (then === undefined) {
      // Not in the commit of the time: the file as it is now, if there is one (a bare name that names
      // no file is no citation).
      if (current !== undefined && (current.anchor.kind === 'file' || !bare.has(path))) {
        anchors.push(current.anchor);
      } else if (!bare.has(path)) {
        anchors.push({ kind: 'mention', path, why: 'missing' });
      }
      continue;
    }
    const same = current?.anchor.kind === 'file' && current.anchor.blobId === then.blobId;
    anchors.push({
      kind: 'file',
      path,
      citedAs: null,
      blobId: then.blobId,
      size: then.size,
      commit,
      source: 'commit',
      // The file's text of that time is not read; when it is unchanged, today's text is the same.
      symbols: same && current.anchor.kind === 'file' ? current.anchor.symbols : [],
    });
    if (same && current.signature !== undefined && current.racy !== true) {
      checks.push({
        path,
        checkedAt: now.toISOString(),
        signature: current.signature,
        head,
        verdict: { state: 'fresh' },
      });
    }
  }
  return { how: 'backfill', anchors, checks };
}
