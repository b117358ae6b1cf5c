/**
 * The staleness of a set of memories, for whoever shows or injects them (session start, prompt recall,
 * recall, explain, `mnemo stale`, doctor, the web UI): only the memories of the caller's project are
 * checked, against the caller's working tree (never against a path derived from a project key);
 * pending ones are backfilled first; every file anchor is verified lazily (verify-anchors.ts), and what
 * was learnt is cached in the store when `persist` is on. Everything is paid from the caller's budget.
 */
import type { AnchorSet, AnchorVerdict } from '../core/anchors/anchor.js';
import { fileAnchors } from '../core/anchors/anchor.js';
import { type MemoryStaleness, memoryStaleness, UNCHECKED } from '../core/anchors/staleness.js';
import type { Memory, MemoryId } from '../core/memory.js';
import type { Logger } from '../log/log.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryStore } from '../store/store.js';
import { backfillAnchors } from './backfill-anchors.js';
import { readHead } from './git-head.js';
import { revParseHead } from './git-history.js';
import { type ProjectRoot, resolveProjectRoot } from './project-root.js';
import {
  anchorKey,
  type AnchorToCheck,
  type CheckBudget,
  verifyAnchors,
} from './verify-anchors.js';

export interface StalenessDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly log: Logger;
}

/** Whose memories are checked, where their files are, and what the check may spend and write. */
export interface StalenessScope {
  /** Only memories of this project are checked; null checks none. */
  readonly projectKey: string | null;
  /** The working tree of the caller's directory; null checks none. */
  readonly root: ProjectRoot | null;
  readonly budget: CheckBudget;
  /** Cache verdicts and store backfilled sets; false for a read-only view (doctor). */
  readonly persist: boolean;
}

export interface StalenessResult {
  /** Every requested memory: checked ones by their anchors, the others `unchecked`. */
  readonly byId: ReadonlyMap<MemoryId, MemoryStaleness>;
  /** The anchor sets read or backfilled, by memory. */
  readonly sets: ReadonlyMap<MemoryId, AnchorSet>;
  /** Memories of this project backfilled by this check. */
  readonly backfilled: number;
}

/** The scope of a directory: its working tree, if it resolves. */
export function scopeOf(
  projectKey: string | null,
  dir: string | null | undefined,
  budget: CheckBudget,
  persist = true,
): StalenessScope {
  const root = dir === null || dir === undefined ? null : (resolveProjectRoot(dir) ?? null);
  return { projectKey, root, budget, persist };
}

/** Checks `memories`. Store failures are logged and cost only the cache; they never throw. */
export async function checkStaleness(
  deps: StalenessDeps,
  scope: StalenessScope,
  memories: readonly Memory[],
): Promise<StalenessResult> {
  const byId = new Map<MemoryId, MemoryStaleness>();
  const sets = new Map<MemoryId, AnchorSet>();
  for (const memory of memories) byId.set(memory.id, UNCHECKED);
  const { root, projectKey } = scope;
  if (root === null || projectKey === null || projectKey === '')
    return { byId, sets, backfilled: 0 };
  const own = [
    ...new Map(memories.filter((m) => m.projectKey === projectKey).map((m) => [m.id, m])).values(),
  ];
  if (own.length === 0) return { byId, sets, backfilled: 0 };

  const now = deps.clock.now();
  for (const [id, set] of await deps.store.getAnchorSets(own.map((m) => m.id))) sets.set(id, set);
  const head = await headOf(root, scope.budget);
  const backfilled = await backfill(
    deps,
    scope,
    head,
    own.filter((m) => !sets.has(m.id)),
    now,
    sets,
  );

  const entries: AnchorToCheck[] = [];
  for (const set of sets.values()) {
    for (const anchor of fileAnchors(set.anchors)) {
      const cached = set.checks.find((check) => check.path === anchor.path);
      entries.push({ memoryId: set.memoryId, anchor, ...(cached === undefined ? {} : { cached }) });
    }
  }
  const result = await verifyAnchors(root, head, entries, scope.budget, now);
  if (scope.persist && result.checks.length > 0) {
    try {
      await deps.store.recordAnchorChecks(result.checks);
    } catch (error) {
      deps.log.warn('anchor checks not cached', { error: String(error).slice(0, 300) });
    }
  }
  for (const memory of own) {
    const set = sets.get(memory.id);
    const verdicts = new Map<string, AnchorVerdict>();
    for (const anchor of fileAnchors(set?.anchors ?? [])) {
      const verdict = result.verdicts.get(anchorKey(memory.id, anchor.path));
      if (verdict !== undefined) verdicts.set(anchor.path, verdict);
    }
    byId.set(memory.id, memoryStaleness(set, verdicts));
  }
  return { byId, sets, backfilled };
}

/** HEAD from git's files, else from `git rev-parse` when the budget allows; null when unknown. */
async function headOf(root: ProjectRoot, budget: CheckBudget): Promise<string | null> {
  if (root.git === null) return null;
  const fromFiles = readHead(root.git);
  if (fromFiles !== undefined) return fromFiles;
  return (await revParseHead(root.dir, budget.git)) ?? null;
}

async function backfill(
  deps: StalenessDeps,
  scope: StalenessScope,
  head: string | null,
  pending: readonly Memory[],
  now: Date,
  sets: Map<MemoryId, AnchorSet>,
): Promise<number> {
  if (pending.length === 0 || scope.root === null) return 0;
  const resolved = await backfillAnchors(scope.root, head, pending, scope.budget, now);
  if (resolved.size === 0) return 0;
  if (scope.persist) {
    try {
      await deps.store.saveAnchorSets(
        [...resolved].map(([memoryId, { set }]) => ({
          memoryId,
          set,
          action: 'backfill' as const,
        })),
      );
    } catch (error) {
      // The memories stay pending in the store; this run still uses what it resolved.
      deps.log.warn('backfilled anchors not stored', { error: String(error).slice(0, 300) });
    }
  }
  for (const [memoryId, { set }] of resolved) {
    sets.set(memoryId, {
      memoryId,
      how: set.how,
      resolvedAt: now.toISOString(),
      anchors: set.anchors,
      checks: set.checks.map((check) => ({ ...check, memoryId })),
    });
  }
  return resolved.size;
}

/**
 * The staleness of `memories` seen from `dir`, for emitters that must not fail because of it: a failed
 * check is logged and labels nothing (an advisory signal fails open; no security decision rests on it).
 */
export async function stalenessFrom(
  deps: StalenessDeps,
  projectKey: string | null,
  dir: string | null | undefined,
  memories: readonly Memory[],
  budget: CheckBudget,
  persist = true,
): Promise<ReadonlyMap<MemoryId, MemoryStaleness>> {
  try {
    return (await checkStaleness(deps, scopeOf(projectKey, dir, budget, persist), memories)).byId;
  } catch (error) {
    deps.log.warn('anchors not checked', { error: String(error).slice(0, 300) });
    return new Map();
  }
}
