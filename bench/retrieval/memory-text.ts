/**
 * What one benchmark memory says: a dialog turn prefixed with its session date and speaker, the
 * caption of an image shared with it, and optionally its neighbouring turns as context. The memory
 * still stands for its own turn only: a hit on it counts for its turn id, never for the neighbours'.
 * Pure.
 */
import type { BenchSession, BenchTurn } from './dataset.js';

export interface MemoryTextOptions {
  /** Neighbouring turns (before, after) of the same session appended as context. Default 0 / 0. */
  contextBefore?: number;
  contextAfter?: number;
  /** Include image captions (`[shares a photo: …]`). Default true. */
  captions?: boolean;
}

/** The text of one turn as a line: `Speaker: text [shares a photo: caption]`. */
export function turnLine(turn: BenchTurn, captions = true): string {
  const caption =
    captions && turn.caption !== undefined ? ` [shares a photo: ${turn.caption}]` : '';
  return `${turn.speaker}: ${turn.text}${caption}`;
}

/** The memory for `session.turns[index]`. */
export function memoryText(
  session: BenchSession,
  index: number,
  options: MemoryTextOptions = {},
): string {
  const captions = options.captions ?? true;
  const turn = session.turns[index];
  if (turn === undefined) throw new Error(`Session ${session.id} has no turn ${index}.`);
  const lines = [`[${session.dateText}] ${turnLine(turn, captions)}`];
  const before = session.turns.slice(Math.max(0, index - (options.contextBefore ?? 0)), index);
  const after = session.turns.slice(index + 1, index + 1 + (options.contextAfter ?? 0));
  if (before.length + after.length > 0) {
    lines.push(`(context) ${[...before, ...after].map((t) => turnLine(t, captions)).join(' | ')}`);
  }
  return lines.join('\n');
}
