/**
 * What a SessionStart injects: pinned memories first, then the most relevant recent decisions,
 * preferences, fixes and errors, then the project's last checkpoint, all through the one injection gate (injectable.ts) and
 * within a token budget (threat model R9). A stale memory is ranked lower (after the fresh ones of its
 * section) and labelled; one whose every cited file was deleted is withheld with that reason. Pure: the
 * candidates, the ledger, the staleness and the time arrive as parameters; the renderer
 * (`renderMemoriesWithinBudget`) stays the judge of the final budget.
 */
import { type MemoryStaleness, staleRankFactor } from '../anchors/staleness.js';
import { estimateTokens } from '../budget.js';
import type { Memory, MemoryId, MemoryKind } from '../memory.js';
import { effectiveHeat, heatFactor } from '../ranking/heat.js';
import { parseIsoTimestamp } from '../ranking/iso-time.js';
import { recencyFactor } from '../ranking/recency.js';
import { closerLine, noticeLine, openerLine } from '../render/frame.js';
import { prepareItems } from '../render/prepare-items.js';
import { itemBlock, type RenderItem } from '../render/render-memories.js';
import {
  type InjectionTarget,
  inSessionScope,
  toRenderItem,
  type WithheldReason,
  withheldReasons,
} from './injectable.js';

/**
 * The kinds of the "recent" section: what a new session most often needs to know was decided, is
 * preferred or broke. Preferences joined when the injection benchmark (bench:inject) found the pack held
 * none of the 31 preferences of the coding set, so no question about one was ever covered.
 */
export const SESSION_RECENT_KINDS = [
  'decision',
  'preference',
  'fix',
  'error',
] as const satisfies readonly MemoryKind[];

type RecentKind = (typeof SESSION_RECENT_KINDS)[number];

/**
 * How fast each recent kind loses relevance: a decision holds until it is superseded, a fix matters
 * while the code around it is fresh, an error mostly until it is fixed.
 */
export const RECENT_HALF_LIFE_DAYS: Readonly<Record<RecentKind, number>> = {
  decision: 30,
  /** A person's way of working outlasts a decision about the code. */
  preference: 60,
  fix: 14,
  error: 7,
};

/** At most this many recent memories, however much budget is left: a start-up pack, not a dump. */
export const MAX_RECENT_ITEMS = 10;

/**
 * The share of the budget kept for the checkpoint. After a compaction or a resume it is the single most
 * useful memory, so the sections before it may not crowd it out; a longer checkpoint is cut to fit.
 */
export const CHECKPOINT_BUDGET_SHARE = 0.5;

/** Global memories rank a little below this project's own at equal recency and heat. */
const GLOBAL_FACTOR = 0.9;

/** Widest header position the planner costs items at (`[99]`), so positions never undercount. */
const WIDEST_POSITION = 99;
/** Longest nonce the frame accepts; costing with it bounds any real nonce's frame. */
const WIDEST_NONCE = 'f'.repeat(128);

/** The pack's sections, in the order they are rendered. */
export type PackSection = 'pinned' | 'recent' | 'checkpoint';

export interface SessionPackInput {
  /** Pinned candidates, in the store's order (newest first). */
  readonly pinned: readonly Memory[];
  /** Recent decision/fix/error candidates, any order. */
  readonly recent: readonly Memory[];
  /** This project's checkpoints, newest first; only the newest is ever considered. */
  readonly checkpoints: readonly Memory[];
  readonly target: InjectionTarget;
  /** ISO-8601 current time, from the caller's clock (ages in headers, recency, heat). */
  readonly now: string;
  /** Ceiling for the whole emission, frame included. */
  readonly budgetTokens: number;
  /** The frame title the emission will carry (its cost is part of the frame). */
  readonly title?: string;
  /**
   * Memories the project page that Claude Code reads holds verbatim (core/pages/held-by-page.ts): left
   * out of the pack, which points at the page instead. Only eligible ones count; the rest are withheld.
   */
  readonly onPage?: ReadonlySet<MemoryId>;
}

export interface PackEntry {
  readonly section: PackSection;
  readonly memory: Memory;
  readonly item: RenderItem;
}

export interface SessionPack {
  /** What to render, in order; render with truncation on so a long checkpoint is cut, not dropped. */
  readonly entries: readonly PackEntry[];
  /** Candidates the gate refused, with every reason (for the ledger and logs; never rendered). */
  readonly withheld: readonly { id: MemoryId; reasons: readonly WithheldReason[] }[];
  /** Eligible candidates left out because the project page holds them (`SessionPackInput.onPage`). */
  readonly onPage: readonly MemoryId[];
}

/**
 * Plans one SessionStart pack. Every candidate passes the injection gate (scope, origin allowlist,
 * review, taint, supersession, the session's ledger); a memory appears once even when it is pinned and
 * recent; only the newest checkpoint of `target.projectKey` is considered, and none when that one is
 * already injected or withheld (an older checkpoint is a stale state, not a fallback).
 */
export function planSessionPack(input: SessionPackInput): SessionPack {
  const { target } = input;
  const withheld: { id: MemoryId; reasons: WithheldReason[] }[] = [];
  const seenIds = new Set<MemoryId>();
  const seenContent = new Set<string>();
  const onPage: MemoryId[] = [];
  const admit = (memory: Memory): boolean => {
    if (seenIds.has(memory.id)) return false;
    seenIds.add(memory.id);
    const reasons = withheldReasons(memory, target);
    if (reasons.length > 0) {
      withheld.push({ id: memory.id, reasons });
      return false;
    }
    if (input.onPage?.has(memory.id) === true) {
      onPage.push(memory.id);
      return false;
    }
    // The same text saved in this project and globally is one memory to the reader.
    if (seenContent.has(memory.contentHash)) return false;
    seenContent.add(memory.contentHash);
    return true;
  };

  const stalenessOf = (memory: Memory) => target.staleness?.get(memory.id);
  // Stale pinned memories after the fresh ones; the store's order (newest first) otherwise.
  const pinned = [...input.pinned]
    .map((memory, index) => ({ memory, index, factor: staleRankFactor(stalenessOf(memory)) }))
    .sort((a, b) => b.factor - a.factor || a.index - b.index)
    .map((entry) => entry.memory)
    .filter(admit);
  const newest = input.checkpoints[0];
  const checkpoint =
    newest !== undefined && isOwnCheckpoint(newest, target.projectKey) && admit(newest)
      ? newest
      : undefined;
  const now = parseIsoTimestamp(input.now) ?? 0;
  const recent = rankRecent(input.recent, now, stalenessOf)
    .filter(admit)
    .slice(0, MAX_RECENT_ITEMS);

  const item = (memory: Memory): RenderItem => toRenderItem(memory, stalenessOf(memory));
  const costs = itemCosts(
    [...pinned, ...recent, ...(checkpoint ? [checkpoint] : [])],
    input.now,
    item,
  );
  const frame =
    estimateTokens(`${openerLine(WIDEST_NONCE)}\n${noticeLine(input.title)}\n`) +
    estimateTokens(closerLine(WIDEST_NONCE));
  const reserve =
    checkpoint === undefined
      ? 0
      : Math.min(
          costs.get(checkpoint.id) ?? 0,
          Math.floor(input.budgetTokens * CHECKPOINT_BUDGET_SHARE),
        );
  let remaining = input.budgetTokens - frame - reserve;
  const take = (memory: Memory): boolean => {
    const cost = costs.get(memory.id) ?? Number.POSITIVE_INFINITY;
    if (cost > remaining) return false;
    remaining -= cost;
    return true;
  };
  const entry = (section: PackSection, memory: Memory): PackEntry => ({
    section,
    memory,
    item: item(memory),
  });
  const entries: PackEntry[] = [
    ...pinned.filter(take).map((memory) => entry('pinned', memory)),
    ...recent.filter(take).map((memory) => entry('recent', memory)),
  ];
  if (checkpoint !== undefined) entries.push(entry('checkpoint', checkpoint));
  return { entries, withheld, onPage };
}

/**
 * Recent candidates, most relevant first: kind-specific recency × read-time heat, global slightly lower,
 * stale ones × `STALE_RANK_FACTOR`.
 *
 * @param now epoch milliseconds, from the caller's clock.
 */
export function rankRecent(
  candidates: readonly Memory[],
  now: number,
  stalenessOf: (memory: Memory) => MemoryStaleness | undefined = () => undefined,
): Memory[] {
  const scored = candidates
    .filter((memory): memory is Memory & { kind: RecentKind } =>
      (SESSION_RECENT_KINDS as readonly string[]).includes(memory.kind),
    )
    .map((memory) => ({
      memory,
      score:
        recencyFactor(memory, now, { halfLifeDays: RECENT_HALF_LIFE_DAYS[memory.kind], floor: 0 }) *
        heatFactor(effectiveHeat(memory, now)) *
        (memory.visibility === 'global' ? GLOBAL_FACTOR : 1) *
        staleRankFactor(stalenessOf(memory)),
    }));
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.memory.createdAt.localeCompare(a.memory.createdAt) ||
      a.memory.id.localeCompare(b.memory.id),
  );
  return scored.map((s) => s.memory);
}

function isOwnCheckpoint(memory: Memory, projectKey: string | null): boolean {
  return (
    memory.kind === 'checkpoint' &&
    projectKey !== null &&
    memory.projectKey === projectKey &&
    inSessionScope(memory, projectKey)
  );
}

/** What each memory costs rendered, by the renderer's own functions at the widest position. */
function itemCosts(
  memories: readonly Memory[],
  now: string,
  item: (memory: Memory) => RenderItem,
): Map<MemoryId, number> {
  const prepared = prepareItems(memories.map(item), now);
  return new Map(
    memories.map((memory, i) => [
      memory.id,
      estimateTokens(`${itemBlock(WIDEST_POSITION, prepared[i]!)}\n`),
    ]),
  );
}
