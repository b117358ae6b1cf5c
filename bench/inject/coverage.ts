/**
 * Session-start pack coverage: does the pack a new session starts with hold the decisions and
 * preferences that later questions in that project need? Pure.
 *
 * Definition (docs/benchmarks.md, "Injection (end to end)"): a question *needs a kind* when the memory
 * it needs (its evidence) was stored with that kind. For each kind in {@link PACK_KINDS}, coverage is
 * the share of the questions needing that kind whose needed memory the project's SessionStart output
 * holds in full. Beside it, the share of the project's memories of that kind the pack holds, and the
 * pack's size.
 */
import type { InjectedMemory } from './classify.js';

/** The kinds a start-up pack is expected to carry: what was decided, and how the user wants things. */
export const PACK_KINDS = ['decision', 'preference'] as const;

export interface CoverageQuestion {
  id: string;
  /** Memory ids that answer it, each with its stored kind. */
  needed: { id: string; kind: string }[];
}

export interface CoverageRow {
  kind: string;
  /** Questions whose needed memory has this kind. */
  questions: number;
  /** Of those, questions whose needed memory the pack holds in full. */
  covered: number;
  /** Memories of this kind in the project(s). */
  memories: number;
  /** Of those, in the pack in full. */
  memoriesInPack: number;
}

/** One project's pack against its questions and memories; rows per kind of {@link PACK_KINDS}. */
export function packCoverage(
  pack: readonly InjectedMemory[],
  questions: readonly CoverageQuestion[],
  memories: readonly { id: string; kind: string }[],
): CoverageRow[] {
  const inPack = new Set(pack.filter((m) => m.full).map((m) => m.id));
  return PACK_KINDS.map((kind) => {
    const needing = questions.filter((q) => q.needed.some((m) => m.kind === kind));
    const ofKind = memories.filter((m) => m.kind === kind);
    return {
      kind,
      questions: needing.length,
      covered: needing.filter((q) => q.needed.some((m) => m.kind === kind && inPack.has(m.id)))
        .length,
      memories: ofKind.length,
      memoriesInPack: ofKind.filter((m) => inPack.has(m.id)).length,
    };
  });
}

/** Sums rows of several projects kind by kind. */
export function sumCoverage(perProject: readonly (readonly CoverageRow[])[]): CoverageRow[] {
  return PACK_KINDS.map((kind) => {
    const rows = perProject.map((rows) => rows.find((r) => r.kind === kind)!);
    return {
      kind,
      questions: rows.reduce((s, r) => s + r.questions, 0),
      covered: rows.reduce((s, r) => s + r.covered, 0),
      memories: rows.reduce((s, r) => s + r.memories, 0),
      memoriesInPack: rows.reduce((s, r) => s + r.memoriesInPack, 0),
    };
  });
}
