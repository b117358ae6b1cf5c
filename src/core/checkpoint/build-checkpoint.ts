/**
 * A session checkpoint without a language model: a compact, deterministic summary of one Claude Code
 * session, written when its context is about to be compacted and when it ends, so a later session can
 * pick up where this one stopped. It lists the user's stated goals (their own prompts), the files edited,
 * the commands that failed and then passed, the commands still failing, the decisions recorded, and the
 * outside sources consulted.
 *
 * Trust follows the Biba rule (threat model W10): the checkpoint's origin is the least trusted origin of
 * everything it draws on, so a session that read a web page yields a checkpoint that is never injected.
 * Every session memory of a summarised kind counts, including those a cap left out of the text.
 *
 * Pure: the hook reads the store and the transcript and passes plain data in. The same input, in any
 * order, gives the same text.
 */
import type { MemoryKind } from '../memory.js';
import {
  leastTrusted,
  type OriginClass,
  parseOriginClass,
  TRUST_ORDER,
} from '../origin/origin-class.js';
import {
  byCreation,
  type CheckpointMemory,
  commandTagOf,
  editedPath,
  errorLine,
  failedCommand,
  fixedCommand,
  isEditCapture,
  oneLine,
} from './session-items.js';

/** The hook that writes a checkpoint. */
export type CheckpointEvent = 'pre-compact' | 'session-end';

/** What a checkpoint is built from. */
export interface CheckpointInput {
  readonly sessionId: string;
  readonly event: CheckpointEvent;
  /** The PreCompact trigger (`manual`, `auto`) or the SessionEnd reason, already reduced to a word. */
  readonly detail?: string;
  /** The session's memories; kinds other than {@link SUMMARISED_KINDS} are ignored. */
  readonly memories: readonly CheckpointMemory[];
  /** The user's typed prompts, oldest first (see transcripts/transcript-entry.ts for what counts). */
  readonly prompts: readonly string[];
  /** True when the transcript was read from a tail window, so older prompts may be missing. */
  readonly promptsPartial?: boolean;
  /** The text the user gave `/compact`: their own words about what matters. */
  readonly compactInstructions?: string;
}

/** A checkpoint ready for the write service. */
export interface Checkpoint {
  readonly content: string;
  /** The least trusted origin of everything drawn on. */
  readonly origin: OriginClass;
  /** Every distinct origin drawn on, most trusted first: the sources of the `derived` envelope. */
  readonly sources: readonly OriginClass[];
  /** How many memories and prompts were drawn on. */
  readonly items: number;
}

/** Memory kinds a checkpoint summarises. Other kinds (notes, facts, checkpoints) are not its business. */
export const SUMMARISED_KINDS: readonly MemoryKind[] = ['capture', 'error', 'fix', 'decision'];

/** How many entries each section shows; the rest is counted on a `… and N more` line. */
export const CHECKPOINT_CAPS = Object.freeze({
  prompts: 6,
  promptChars: 240,
  files: 25,
  fixes: 10,
  failures: 5,
  decisions: 10,
  consulted: 5,
});

function capped(
  lines: readonly string[],
  max: number,
  noun: string,
  plural = `${noun}s`,
): string[] {
  if (lines.length <= max) return lines.map((line) => `- ${line}`);
  const more = lines.length - max;
  const nouns = more === 1 ? noun : plural;
  return [...lines.slice(0, max).map((line) => `- ${line}`), `- … and ${more} more ${nouns}`];
}

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [title, ...lines];
}

/** Oldest first, then newest: the first prompt usually states the goal, the last ones where it stands. */
function goalLines(prompts: readonly string[]): string[] {
  const max = CHECKPOINT_CAPS.prompts;
  const shown = prompts.map((prompt) => oneLine(prompt, CHECKPOINT_CAPS.promptChars));
  if (shown.length <= max) return shown.map((line) => `- ${line}`);
  const tail = shown.slice(shown.length - (max - 1));
  const skipped = shown.length - max;
  return [
    `- ${shown[0] ?? ''}`,
    `- … ${skipped} more prompt${skipped === 1 ? '' : 's'} …`,
    ...tail.map((line) => `- ${line}`),
  ];
}

function fileLines(edits: readonly CheckpointMemory[]): string[] {
  const counts = new Map<string, number>();
  for (const edit of edits) {
    const path = editedPath(edit);
    counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  const lines = [...counts].map(([path, n]) => (n === 1 ? path : `${path} (${n} edits)`));
  return capped(lines, CHECKPOINT_CAPS.files, 'file');
}

/** Fixes (one per command, its last) and the failures no later fix answered (one per command). */
function commandLines(
  errors: readonly CheckpointMemory[],
  fixes: readonly CheckpointMemory[],
): { fixed: string[]; failing: string[] } {
  const lastFix = new Map<string, CheckpointMemory>();
  for (const fix of fixes) lastFix.set(commandTagOf(fix) ?? fix.id, fix);
  const fixed: string[] = [];
  for (const [tag, fix] of lastFix) {
    const command = fixedCommand(fix);
    const before = errors.filter((e) => commandTagOf(e) === tag && byCreation(e, fix) < 0).at(-1);
    const was = before === undefined ? '' : errorLine(before, command);
    const name = oneLine(command ?? fix.content, 120);
    fixed.push(was === '' ? name : `${name} (was: ${was})`);
  }
  const lastError = new Map<string, CheckpointMemory>();
  for (const error of errors) lastError.set(commandTagOf(error) ?? error.id, error);
  const failing: string[] = [];
  for (const [tag, error] of lastError) {
    const fix = lastFix.get(tag);
    if (fix !== undefined && byCreation(error, fix) < 0) continue;
    const why = errorLine(error);
    failing.push(why === '' ? failedCommand(error) : `${failedCommand(error)} (${why})`);
  }
  return {
    fixed: capped(fixed, CHECKPOINT_CAPS.fixes, 'fix', 'fixes'),
    failing: capped(failing, CHECKPOINT_CAPS.failures, 'failing command'),
  };
}

function consultedLine(memory: CheckpointMemory): string {
  const first = (memory.content.split('\n', 1)[0] ?? '').replace(/:\s*$/, '');
  return oneLine(first, 160);
}

/**
 * Builds the checkpoint of a session, or undefined when there is nothing to summarise (no prompt and
 * no memory of a summarised kind).
 */
export function buildCheckpoint(input: CheckpointInput): Checkpoint | undefined {
  const memories = input.memories
    .filter((memory) => SUMMARISED_KINDS.includes(memory.kind))
    .slice()
    .sort(byCreation);
  const prompts = input.prompts.filter((prompt) => prompt.trim().length > 0);
  const instructions = input.compactInstructions?.trim() ?? '';
  const userItems = prompts.length + (instructions === '' ? 0 : 1);
  if (memories.length === 0 && userItems === 0) return undefined;

  const edits = memories.filter(isEditCapture);
  const errors = memories.filter((m) => m.kind === 'error');
  const fixes = memories.filter((m) => m.kind === 'fix');
  const decisions = memories.filter((m) => m.kind === 'decision');
  const consulted = memories.filter((m) => m.kind === 'capture' && !isEditCapture(m));
  const commands = commandLines(errors, fixes);

  const detail = input.detail === undefined || input.detail === '' ? '' : `, ${input.detail}`;
  const blocks: string[][] = [
    [`Session checkpoint (${input.event}${detail})`, `Session: ${oneLine(input.sessionId, 256)}`],
    section(
      input.promptsPartial === true
        ? "Goals (the user's prompts, oldest first; earlier ones were outside the part of the transcript read):"
        : "Goals (the user's prompts, oldest first):",
      goalLines(prompts),
    ),
    instructions === ''
      ? []
      : [`Compaction request: ${oneLine(instructions, CHECKPOINT_CAPS.promptChars)}`],
    section(`Files edited (${new Set(edits.map(editedPath)).size}):`, fileLines(edits)),
    section('Fixed (failed, then passed):', commands.fixed),
    section('Still failing:', commands.failing),
    section(
      'Decisions:',
      capped(
        decisions.map((d) => oneLine(d.content)),
        CHECKPOINT_CAPS.decisions,
        'decision',
      ),
    ),
    section(
      'Consulted:',
      capped(consulted.map(consultedLine), CHECKPOINT_CAPS.consulted, 'capture'),
    ),
  ];

  const origins: OriginClass[] = memories.map((memory) => parseOriginClass(memory.origin));
  if (userItems > 0) origins.push('user');
  const present = new Set(origins);
  return {
    content: blocks
      .filter((block) => block.length > 0)
      .map((block) => block.join('\n'))
      .join('\n\n'),
    origin: leastTrusted(origins),
    sources: TRUST_ORDER.filter((origin) => present.has(origin)),
    items: memories.length + userItems,
  };
}
