/**
 * Long turns from a dialog dataset (`--dataset locomo-long`): consecutive turns of one session merged
 * into memories of {@link LONG_TURN_WORDS} words, the shape of a long assistant or user turn, so the
 * benchmark can measure retrieval when one memory holds a paragraph rather than a line. Each merged
 * memory keeps the ids of the turns it holds; a question's evidence maps to the merged memories that
 * hold its evidence turns, so the strict hit rule is unchanged. Pure.
 *
 * A merged turn's speaker is its first turn's; its text is the first turn's text followed by the
 * others as `Speaker: text` lines (captions kept as `[shares a photo: …]`), so the memory text
 * (`[date] speaker: text` …) reads like the dialog it came from.
 */
import type { BenchConversation, BenchDataset, BenchSession, BenchTurn } from './dataset.js';
import { turnLine } from './memory-text.js';

/** Words per merged memory: a chunk closes once it reaches `min`, and never grows past `max`. */
export const LONG_TURN_WORDS = { min: 180, max: 400 } as const;

export interface LongTurnReport {
  /** Merged memories, and how many of them fall outside [min, max] words (a short session's only chunk). */
  memories: number;
  outOfRange: number;
  words: { min: number; median: number; max: number };
  /** Source turns merged. */
  sourceTurns: number;
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => w.length > 0).length;
}

/** Splits one session's turns into consecutive runs of min–max words (see the file header). */
export function chunkTurns(
  turns: readonly BenchTurn[],
  words: { min: number; max: number } = LONG_TURN_WORDS,
): BenchTurn[][] {
  const chunks: BenchTurn[][] = [];
  let current: BenchTurn[] = [];
  let count = 0;
  for (const turn of turns) {
    const n = wordCount(turnLine(turn));
    // Close before a turn that would overflow, unless the chunk is still empty.
    if (current.length > 0 && count + n > words.max) {
      chunks.push(current);
      current = [];
      count = 0;
    }
    current.push(turn);
    count += n;
    if (count >= words.min) {
      chunks.push(current);
      current = [];
      count = 0;
    }
  }
  if (current.length > 0) {
    // A short tail joins the chunk before it when both fit; otherwise it stands alone.
    const last = chunks.at(-1);
    const lastWords = last?.reduce((s, t) => s + wordCount(turnLine(t)), 0) ?? 0;
    if (last !== undefined && lastWords + count <= words.max) last.push(...current);
    else chunks.push(current);
  }
  return chunks;
}

/** The id of a merged turn: its first and last source ids (`D1:1..D1:9`), or the one id. */
export function mergedId(turns: readonly BenchTurn[]): string {
  const first = turns[0]!.id;
  const last = turns.at(-1)!.id;
  return first === last ? first : `${first}..${last}`;
}

function mergeTurns(turns: readonly BenchTurn[]): BenchTurn {
  const [first, ...rest] = turns;
  const merged: BenchTurn = {
    id: mergedId(turns),
    speaker: first!.speaker,
    text: [
      first!.text + (first!.caption === undefined ? '' : ` [shares a photo: ${first!.caption}]`),
      ...rest.map((t) => turnLine(t)),
    ].join('\n'),
  };
  return merged;
}

/** The dataset with every session's turns merged into long turns, evidence remapped; and a report. */
export function longTurnDataset(
  dataset: BenchDataset,
  words: { min: number; max: number } = LONG_TURN_WORDS,
): { dataset: BenchDataset; report: LongTurnReport } {
  const counts: number[] = [];
  let sourceTurns = 0;
  const conversations = dataset.conversations.map((conversation): BenchConversation => {
    const mergedOf = new Map<string, string>();
    const sessions = conversation.sessions.map((session): BenchSession => {
      sourceTurns += session.turns.length;
      const turns = chunkTurns(session.turns, words).map((chunk) => {
        const merged = mergeTurns(chunk);
        for (const turn of chunk) mergedOf.set(turn.id, merged.id);
        counts.push(chunk.reduce((s, t) => s + wordCount(turnLine(t)), 0));
        return merged;
      });
      return { ...session, turns };
    });
    const questions = conversation.questions.map((q) => ({
      ...q,
      evidence: [...new Set(q.evidence.map((id) => mergedOf.get(id)!))],
    }));
    return { ...conversation, sessions, questions };
  });
  const sorted = [...counts].sort((a, b) => a - b);
  return {
    dataset: { ...dataset, name: `${dataset.name}-long`, conversations },
    report: {
      memories: counts.length,
      outOfRange: counts.filter((c) => c < words.min || c > words.max).length,
      words: {
        min: sorted[0] ?? 0,
        median: sorted[Math.floor(sorted.length / 2)] ?? 0,
        max: sorted.at(-1) ?? 0,
      },
      sourceTurns,
    },
  };
}
