/**
 * One memory's anchors as a person reads them (`mnemo explain`, `mnemo get`, MCP `explain_memory`, the
 * web UI's memory page): each cited path with its fingerprint and what happened to it since, the
 * memory's staleness and label, and how it was anchored. Checked against the caller's working tree with
 * the full budget (an explicit request), and cached like any other check.
 */
import type {
  AnchorHow,
  AnchorVerdict,
  FileAnchor,
  MentionReason,
} from '../core/anchors/anchor.js';
import {
  describeVerdict,
  type MemoryStaleness,
  type StalenessStatus,
} from '../core/anchors/staleness.js';
import type { Memory } from '../core/memory.js';
import { checkStaleness, scopeOf, type StalenessDeps } from './check-staleness.js';
import { type CheckBudget, fullBudget } from './verify-anchors.js';

/** One cited path of a memory. */
export interface AnchorLine {
  readonly path: string;
  readonly kind: 'file' | 'mention';
  /** File anchors: the fingerprint. */
  readonly blobId?: string;
  readonly size?: number;
  readonly commit?: string | null;
  readonly source?: FileAnchor['source'];
  readonly citedAs?: string | null;
  readonly symbols?: readonly string[];
  /** Mentions: why the path was no anchor. */
  readonly why?: MentionReason;
  /** File anchors, when checked: the verdict. */
  readonly verdict?: AnchorVerdict;
  /** In words: "changed 4 commits ago", "unchanged", "did not exist when written". */
  readonly description: string;
}

export interface AnchorReport {
  readonly status: StalenessStatus;
  /** For stale and gone memories: the label recall and session start show. */
  readonly label: string | null;
  /** How the set was resolved; null while pending. */
  readonly how: AnchorHow | null;
  readonly resolvedAt: string | null;
  /** The working tree the anchors were checked against; null when they were not checked. */
  readonly checkedIn: string | null;
  readonly anchors: readonly AnchorLine[];
}

const MENTION_TEXT: Readonly<Record<MentionReason, string>> = {
  missing: 'did not exist when anchored (an unresolved mention: never stale)',
  not_a_file: 'was not a regular file when anchored',
  too_large: 'was too large to fingerprint',
  unreadable: 'could not be read when anchored',
  deleted: 'was deleted when the memory was re-verified (kept as a mention)',
};

/**
 * The anchors of `memory`, checked from `dir` when the memory belongs to `projectKey` (a memory of
 * another project is listed unchecked). A pending memory is backfilled first when `persist` allows.
 */
export async function reportAnchors(
  deps: StalenessDeps,
  memory: Memory,
  projectKey: string | null,
  dir: string | null,
  options: { budget?: CheckBudget; persist?: boolean } = {},
): Promise<AnchorReport> {
  const scope = scopeOf(projectKey, dir, options.budget ?? fullBudget(), options.persist ?? true);
  const result = await checkStaleness(deps, scope, [memory]);
  const staleness = result.byId.get(memory.id) ?? { status: 'unchecked', anchors: [] };
  const set =
    result.sets.get(memory.id) ?? (await deps.store.getAnchorSets([memory.id])).get(memory.id);
  const checked = staleness.status !== 'unchecked' && scope.root !== null;
  return {
    status: staleness.status === 'unchecked' && set === undefined ? 'pending' : staleness.status,
    label: staleness.label ?? null,
    how: set?.how ?? null,
    resolvedAt: set?.resolvedAt ?? null,
    checkedIn: checked ? (scope.root?.dir ?? null) : null,
    anchors: (set?.anchors ?? []).map((anchor) =>
      anchor.kind === 'mention'
        ? {
            path: anchor.path,
            kind: 'mention',
            why: anchor.why,
            description: MENTION_TEXT[anchor.why],
          }
        : fileLine(anchor, staleness),
    ),
  };
}

function fileLine(anchor: FileAnchor, staleness: MemoryStaleness): AnchorLine {
  const verdict = staleness.anchors.find((reading) => reading.path === anchor.path)?.verdict;
  return {
    path: anchor.path,
    kind: 'file',
    blobId: anchor.blobId,
    size: anchor.size,
    commit: anchor.commit,
    source: anchor.source,
    citedAs: anchor.citedAs,
    symbols: anchor.symbols,
    ...(verdict === undefined ? {} : { verdict }),
    description: verdict === undefined ? 'not checked from here' : describeVerdict(verdict),
  };
}
