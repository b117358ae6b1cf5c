/**
 * The fragment-cluster rule (threat model W8), pure: many small network captures that each pass the
 * novelty gate can together form one instruction. When a new directive-shaped network fragment makes at
 * least {@link CLUSTER_MIN_FRAGMENTS} such fragments from one source within {@link CLUSTER_WINDOW_MINUTES},
 * the whole set is quarantined as one cluster. The rule only restricts: members stay pending (they
 * already are, by origin) and a person reviews them as one; nothing here can release a memory.
 */
import { sourceHostOf } from '../origin/source-url.js';

/** Directive-shaped fragments from one source, within the window, that form a cluster. */
export const CLUSTER_MIN_FRAGMENTS = 3;
/** The sliding window, ending at the newest fragment. */
export const CLUSTER_WINDOW_MINUTES = 10;
/** Most members one cluster lists (a flood is already capped per session by the write budget). */
export const CLUSTER_MAX_MEMBERS = 200;

/** The reason recorded with every cluster decision (audit, `explain`, review). */
export const CLUSTER_REASON = `${CLUSTER_MIN_FRAGMENTS} or more directive-shaped network fragments from one source within ${CLUSTER_WINDOW_MINUTES} minutes`;

/** Where a fragment came from: its page's host, or without one its session and tool. */
export type FragmentSource =
  | { readonly kind: 'host'; readonly host: string }
  | {
      readonly kind: 'session_tool';
      readonly sessionId: string | null;
      readonly tool: string | null;
    };

/** What the rule reads of one network fragment. */
export interface Fragment {
  readonly id: string;
  /** When it was stored, in epoch milliseconds (the caller reads its clock; core reads none). */
  readonly createdAtMs: number;
  readonly sessionId: string | null;
  readonly originTool: string | null;
  readonly sourceUrl: string | null;
  /** From `isDirectiveShaped` on the stored (sanitised) text. */
  readonly directive: boolean;
  /** The cluster the fragment already belongs to, if any. */
  readonly clusterId: string | null;
}

/** The source of a fragment, from channel facts only (never from its text). */
export function fragmentSource(
  fragment: Pick<Fragment, 'sessionId' | 'originTool' | 'sourceUrl'>,
): FragmentSource {
  const host = sourceHostOf(fragment.sourceUrl);
  return host !== null
    ? { kind: 'host', host }
    : { kind: 'session_tool', sessionId: fragment.sessionId, tool: fragment.originTool };
}

/** Whether two sources are the same one. */
export function sameSource(a: FragmentSource, b: FragmentSource): boolean {
  if (a.kind === 'host' || b.kind === 'host') {
    return a.kind === 'host' && b.kind === 'host' && a.host === b.host;
  }
  return a.sessionId === b.sessionId && a.tool === b.tool;
}

/** What the rule decided for the newest fragment. */
export type ClusterDecision =
  | { readonly cluster: false }
  | {
      readonly cluster: true;
      /** Stable: an existing cluster's id, else derived from the oldest member. */
      readonly clusterId: string;
      /** Every member, oldest first, the newest fragment included. */
      readonly memberIds: readonly string[];
      readonly source: FragmentSource;
      readonly reason: string;
    };

/**
 * Decides whether `incoming` completes (or joins) a cluster, given `recent` network fragments of the same
 * project (any order; others' sources and fragments outside the window are ignored here). A fragment that
 * is not directive-shaped never clusters.
 */
export function decideCluster(incoming: Fragment, recent: readonly Fragment[]): ClusterDecision {
  if (!incoming.directive) return { cluster: false };
  const source = fragmentSource(incoming);
  const end = incoming.createdAtMs;
  const start = end - CLUSTER_WINDOW_MINUTES * 60_000;
  const members = recent
    .filter((f) => f.id !== incoming.id && f.directive)
    .filter((f) => {
      const at = f.createdAtMs;
      return at >= start && at <= end && sameSource(fragmentSource(f), source);
    })
    .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id))
    .slice(-(CLUSTER_MAX_MEMBERS - 1));
  members.push(incoming);
  if (members.length < CLUSTER_MIN_FRAGMENTS) return { cluster: false };
  const existing = members.map((f) => f.clusterId).filter((id): id is string => id !== null);
  const clusterId = existing.sort()[0] ?? clusterIdFor(members[0]?.id ?? incoming.id);
  return {
    cluster: true,
    clusterId,
    memberIds: members.map((f) => f.id),
    source,
    reason: CLUSTER_REASON,
  };
}

/** The id of a cluster whose oldest member is `memberId`. */
export function clusterIdFor(memberId: string): string {
  return `cluster-${memberId}`;
}

/** A source in words, for notes, `explain` and review. */
export function describeSource(source: FragmentSource): string {
  return source.kind === 'host'
    ? `host ${source.host}`
    : `session ${source.sessionId ?? '(none)'}, tool ${source.tool ?? '(none)'}`;
}
