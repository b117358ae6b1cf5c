/**
 * What one hook run gave the agent, read from the hook's stdout as Claude Code reads it: the context
 * text, which stored memories it holds, and whether each is there in full or only as a short line
 * (an index entry naming the memory). Pure: the stored memories arrive as a lookup.
 *
 * The reading does not depend on the renderer's layout: a memory is "present" when its id appears
 * anywhere in the context, and "in full" when the text between its id and the next memory's id holds
 * at least {@link FULL_COVERAGE} of the memory's distinct words. So an index line that shows the first
 * few words counts as an index line, whatever format it takes, and a full body cut by the budget's
 * truncation marker still counts as full when most of it is there.
 */

/** Share of a memory's distinct words that must follow its id for the memory to count as shown in full. */
export const FULL_COVERAGE = 0.8;

/** Memory ids are ULIDs (src/core/memory.ts). */
const ULID = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;

/**
 * The context a hook's stdout adds to the model: `hookSpecificOutput.additionalContext` of a JSON
 * object, plain text as is (Claude Code adds plain stdout of these events too), undefined for empty
 * output or a JSON object without context.
 */
export function hookContext(stdout: string): string | undefined {
  const text = stdout.trim();
  if (text === '') return undefined;
  if (!text.startsWith('{')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Claude Code falls back to plain text when the JSON does not parse.
    return text;
  }
  const output = (parsed as { hookSpecificOutput?: { additionalContext?: unknown } })
    .hookSpecificOutput;
  const context = output?.additionalContext;
  return typeof context === 'string' && context.trim() !== '' ? context : undefined;
}

/** One stored memory found in a context. */
export interface InjectedMemory {
  id: string;
  /** Shown with (nearly) all its words, rather than as a line naming it. */
  full: boolean;
}

/** Lower-cased letter/digit runs: the words compared between a memory and what was shown of it. */
export function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Share of `memory`'s distinct words that occur in `shown` (1 for a memory without words). */
export function coverage(memory: string, shown: string): number {
  const wanted = words(memory);
  if (wanted.size === 0) return 1;
  const have = words(shown);
  let found = 0;
  for (const word of wanted) if (have.has(word)) found += 1;
  return found / wanted.size;
}

/**
 * The stored memories a context holds, in the order they appear, each once. Ids that name no stored
 * memory (`contentOf` returns undefined) are ignored; each memory's shown text is what follows its
 * first id up to the next known id.
 */
export function injectedMemories(
  context: string,
  contentOf: (id: string) => string | undefined,
): InjectedMemory[] {
  const marks: { id: string; start: number; end: number }[] = [];
  for (const match of context.matchAll(ULID)) {
    if (contentOf(match[0]) === undefined) continue;
    marks.push({ id: match[0], start: match.index, end: match.index + match[0].length });
  }
  const out = new Map<string, InjectedMemory>();
  marks.forEach((mark, i) => {
    const shown = context.slice(mark.end, marks[i + 1]?.start ?? context.length);
    const full = coverage(contentOf(mark.id)!, shown) >= FULL_COVERAGE;
    const seen = out.get(mark.id);
    if (seen === undefined) out.set(mark.id, { id: mark.id, full });
    else if (full) seen.full = true;
  });
  return [...out.values()];
}

/** How a prompt's injection relates to the memories it needed. */
export type PromptOutcome = 'full' | 'index' | 'wrong' | 'silent';

export const PROMPT_OUTCOMES: readonly PromptOutcome[] = ['full', 'index', 'wrong', 'silent'];

/**
 * `full`: a needed memory was shown in full; `index`: a needed memory was only named (an index line);
 * `wrong`: something was injected, none of it needed; `silent`: nothing was injected. A prompt that
 * needs nothing (a negative) is `wrong` as soon as anything is injected.
 */
export function classifyPrompt(
  injected: readonly InjectedMemory[],
  needed: ReadonlySet<string>,
): PromptOutcome {
  if (injected.length === 0) return 'silent';
  const hits = injected.filter((memory) => needed.has(memory.id));
  if (hits.some((memory) => memory.full)) return 'full';
  return hits.length > 0 ? 'index' : 'wrong';
}

/**
 * Injected memories that belong to another project than the session's: neither stored under its key
 * nor global. `projectOf` gives a memory's key and visibility; an unknown id is not counted.
 */
export function crossProjectIds(
  injected: readonly InjectedMemory[],
  sessionProject: string,
  projectOf: (id: string) => { projectKey: string; global: boolean } | undefined,
): string[] {
  return injected
    .map((memory) => memory.id)
    .filter((id) => {
      const owner = projectOf(id);
      return owner !== undefined && !owner.global && owner.projectKey !== sessionProject;
    });
}

/** 1-based rank of the first needed id in a ranked list, or null when none is listed. */
export function rankOfNeeded(
  ranked: readonly string[],
  needed: ReadonlySet<string>,
): number | null {
  const index = ranked.findIndex((id) => needed.has(id));
  return index === -1 ? null : index + 1;
}
