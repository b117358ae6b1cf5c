/**
 * Re-verification: a person or the agent confirms that a stale memory still holds, and its anchors are
 * re-taken from the code as it is now, recorded in the audit trail with who did it and what changed. A
 * renamed file is followed (the anchor moves to the new path, `citedAs` keeps the path the text names);
 * a deleted one becomes a mention; paths that did not exist before and do now become anchors. Who may do
 * it is one rule (`mayReverify`): a tainted session cannot re-verify a more trusted memory.
 */
import type { Anchor, AnchorSet, FileAnchor } from '../core/anchors/anchor.js';
import { MAX_ANCHORS } from '../core/anchors/anchor.js';
import { candidateSymbols } from '../core/anchors/cited-symbols.js';
import { MemoryError } from '../core/errors.js';
import type { Memory } from '../core/memory.js';
import { type OriginClass, parseOriginClass } from '../core/origin/origin-class.js';
import { mayReverify } from '../core/privileges/privileges.js';
import { anchorAgainst, readWorktreeFile } from './anchor-content.js';
import { type AnchorReport, reportAnchors } from './anchor-report.js';
import type { StalenessDeps } from './check-staleness.js';
import { readHead } from './git-head.js';
import { resolveProjectRoot } from './project-root.js';

/** Who asks: the origin their channel earns (`user` for the CLI and web UI, `agent`/`agent_tainted` for MCP). */
export interface ReverifyActor {
  readonly origin: OriginClass;
  /** For the audit trail: `cli`, `mcp:reverify_memory`, `web`. */
  readonly channel: string;
  readonly sessionId?: string | null;
}

export interface ReverifyOutcome {
  /** The anchors as they stood before. */
  readonly before: AnchorReport;
  /** The new set, as stored. */
  readonly after: AnchorSet;
}

/**
 * Re-anchors `memory` against `dir`'s working tree. Throws CONFLICT when `actor` may not re-verify it,
 * INVALID_INPUT when the memory is not of `projectKey` or the directory does not resolve.
 */
export async function reverifyMemory(
  deps: StalenessDeps,
  memory: Memory,
  request: { projectKey: string | null; dir: string | null; actor: ReverifyActor },
): Promise<ReverifyOutcome> {
  const { actor } = request;
  const target = parseOriginClass(memory.origin);
  if (!mayReverify(actor.origin, target)) {
    deps.log.warn('reverify refused', { id: memory.id, actor: actor.origin, target });
    throw new MemoryError(
      'CONFLICT',
      `Not re-verified: untrusted content entered this session since the user's last message, so it (origin ${actor.origin}) cannot vouch for memory ${memory.id} (origin ${target}). Ask the user to run \`mnemo reverify ${memory.id}\`.`,
    );
  }
  if (memory.projectKey !== request.projectKey) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Memory ${memory.id} belongs to project ${memory.projectKey}; re-verify it from that project's directory (or pass --project <dir>).`,
    );
  }
  const root = request.dir === null ? undefined : resolveProjectRoot(request.dir);
  if (root === undefined) {
    throw new MemoryError(
      'INVALID_INPUT',
      `The project directory ${request.dir ?? '(none)'} does not exist; re-verify from inside the project.`,
    );
  }
  const before = await reportAnchors(deps, memory, request.projectKey, request.dir);
  const now = deps.clock.now();
  const head = root.git === null ? null : (readHead(root.git) ?? null);
  const fresh = anchorAgainst(root, memory.content, now, { how: 'reverify', head });
  const symbols = candidateSymbols(memory.content);
  const anchors = new Map<string, Anchor>(fresh.anchors.map((anchor) => [anchor.path, anchor]));
  const checks = [...fresh.checks];
  for (const line of before.anchors) {
    if (line.kind !== 'file') continue;
    const renamedTo = line.verdict?.state === 'renamed' ? line.verdict.renamedTo : undefined;
    // The path the text names, when the anchor follows a file that moved away from it.
    const citedAs = line.citedAs ?? (renamedTo === undefined ? null : line.path);
    if (citedAs !== null) {
      const target = renamedTo ?? line.path;
      const moved = readWorktreeFile(root, [target], head, symbols, now);
      if (moved?.anchor.kind === 'file') {
        anchors.delete(citedAs);
        anchors.delete(line.path);
        anchors.set(target, { ...moved.anchor, citedAs } satisfies FileAnchor);
        if (moved.signature !== undefined && moved.racy !== true) {
          checks.push({
            path: target,
            checkedAt: now.toISOString(),
            signature: moved.signature,
            head,
            verdict: { state: 'fresh' },
          });
        }
        continue;
      }
    }
    // A file that was anchored and is gone now: kept as a mention that says so.
    const named = citedAs ?? line.path;
    const current = anchors.get(named);
    if (current === undefined || (current.kind === 'mention' && current.why === 'missing')) {
      anchors.delete(line.path);
      anchors.set(named, { kind: 'mention', path: named, why: 'deleted' });
    }
  }
  const set = {
    how: 'reverify' as const,
    anchors: [...anchors.values()].slice(0, MAX_ANCHORS),
    checks,
  };
  const [after] = await deps.store.saveAnchorSets([
    {
      memoryId: memory.id,
      set,
      action: 'reverify',
      detail: {
        actor: actor.channel,
        origin: actor.origin,
        sessionId: actor.sessionId ?? null,
        head,
        before: before.anchors
          .filter((line) => line.kind === 'file')
          .map((line) => ({ path: line.path, state: line.verdict?.state ?? 'unchecked' })),
        after: set.anchors.map((anchor) =>
          anchor.kind === 'file'
            ? { path: anchor.path, blobId: anchor.blobId }
            : { path: anchor.path, mention: anchor.why },
        ),
      },
    },
  ]);
  if (after === undefined) throw new Error(`the store did not return the anchors of ${memory.id}`);
  return { before, after };
}
