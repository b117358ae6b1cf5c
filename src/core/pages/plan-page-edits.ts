/**
 * Turns a person's edits of the project page into a plan: entries added (new memories), changed or
 * moved to another section (supersessions that keep history), and deleted (forgets). The plan is shown
 * before anything is applied, and it is conservative:
 *
 * - a deletion is an id the page was written with (its index) whose entry is gone and which the page
 *   still shows; a memory written after the page is never mistaken for a deleted one;
 * - an entry that no longer matches the store (its memory was forgotten, replaced or is not one the
 *   page may show) is a conflict unless its text is unchanged, and any conflict blocks the whole plan;
 * - an entry whose text equals what the page shows is unchanged, so a page read twice plans nothing.
 *
 * Pure: the page as read, the page as it would be written now and the memories its ids name arrive as
 * parameters.
 */
import type { Memory, MemoryId, MemoryKind } from '../memory.js';
import { pageWithheldReasons } from './page-eligibility.js';
import { type PageSectionKey, sectionByKey } from './page-format.js';
import { pageText } from './page-text.js';
import type { ParsedPage } from './parse-page.js';
import type { ProjectPage } from './render-page.js';

export type PagePlanStep =
  | { action: 'add'; section: PageSectionKey; kind: MemoryKind; text: string; line: number }
  | {
      action: 'change';
      memory: Memory;
      section: PageSectionKey;
      kind: MemoryKind;
      /** The text as read from the page. */
      text: string;
      /** The text the page showed for the memory. */
      previous: string;
      line: number;
    }
  | { action: 'forget'; memory: Memory; previous: string };

export interface PageConflict {
  readonly id: MemoryId;
  readonly line: number;
  readonly message: string;
}

export interface PagePlan {
  readonly steps: readonly PagePlanStep[];
  /** Any conflict blocks applying the plan; each message says how to resolve it. */
  readonly conflicts: readonly PageConflict[];
  /** Things worth telling that change nothing (an outdated but unedited entry, a duplicate). */
  readonly notes: readonly string[];
  /** Entries that match the store. */
  readonly unchanged: number;
}

export interface PlanInput {
  readonly projectKey: string;
  readonly parsed: ParsedPage;
  /** The page as it would be written now. */
  readonly current: ProjectPage;
  /**
   * Memories named by ids on the page that the current page does not show, and the memories that
   * replaced them (their `supersededBy` chains). Missing ids were forgotten.
   */
  readonly lookup: ReadonlyMap<MemoryId, Memory>;
}

/** Most supersession hops followed to find what replaced an entry's memory. */
const MAX_CHAIN = 32;

function headOf(memory: Memory, lookup: ReadonlyMap<MemoryId, Memory>): Memory | undefined {
  let current: Memory | undefined = memory;
  for (let hop = 0; hop < MAX_CHAIN && current?.supersededBy != null; hop += 1) {
    current = lookup.get(current.supersededBy);
  }
  return current?.supersededBy === null ? current : undefined;
}

/** Plans what applying the page would change. Never throws for content: conflicts say why. */
export function planPageEdits(input: PlanInput): PagePlan {
  const shown = new Map(input.current.entries.map((entry) => [entry.memory.id, entry]));
  const steps: PagePlanStep[] = [];
  const conflicts: PageConflict[] = [];
  const notes: string[] = [];
  let unchanged = 0;
  const added = new Map<string, number>();
  const onPage = new Set<MemoryId>();

  for (const entry of input.parsed.entries) {
    const section = sectionByKey(entry.section);
    if (entry.id === null) {
      const key = `${entry.section}\n${entry.text}`;
      const same = input.current.entries.find(
        (e) => e.section === entry.section && e.text === entry.text,
      );
      if (same !== undefined || added.has(key)) {
        notes.push(
          `line ${entry.line}: the new entry repeats ${same === undefined ? `line ${added.get(key)}` : `memory ${same.memory.id}`}; not added twice`,
        );
        continue;
      }
      added.set(key, entry.line);
      steps.push({
        action: 'add',
        section: entry.section,
        kind: section.newKind,
        text: entry.text,
        line: entry.line,
      });
      continue;
    }
    onPage.add(entry.id);
    const current = shown.get(entry.id);
    if (current !== undefined) {
      const moved = !section.kinds.includes(current.memory.kind);
      if (!moved && current.text === entry.text) {
        unchanged += 1;
        continue;
      }
      steps.push({
        action: 'change',
        memory: current.memory,
        section: entry.section,
        kind: moved ? section.newKind : current.memory.kind,
        text: entry.text,
        previous: current.text,
        line: entry.line,
      });
      continue;
    }
    const conflict = staleEntry(entry.id, entry.text, input);
    if (conflict === undefined) {
      unchanged += 1;
      notes.push(
        `line ${entry.line}: memory ${entry.id} was replaced since the page was written; the next write shows the current one`,
      );
    } else {
      conflicts.push({ id: entry.id, line: entry.line, message: conflict });
    }
  }

  for (const id of input.parsed.index ?? []) {
    const current = shown.get(id);
    if (current === undefined || onPage.has(id)) continue;
    onPage.add(id);
    steps.push({ action: 'forget', memory: current.memory, previous: current.text });
  }
  if (input.parsed.index === null) {
    notes.push(
      'the page has no index, so deleted entries cannot be told apart: nothing will be forgotten',
    );
  }
  return { steps, conflicts, notes, unchanged };
}

/**
 * Undefined when an entry the current page does not show is harmlessly outdated: its memory was
 * replaced and the entry still shows the old or the new text. Otherwise the conflict's message.
 */
function staleEntry(id: MemoryId, text: string, input: PlanInput): string | undefined {
  const memory = input.lookup.get(id);
  if (memory === undefined) {
    return `memory ${id} no longer exists. Delete the entry, or delete its id line to add the text as a new memory.`;
  }
  if (memory.projectKey !== input.projectKey) {
    return `memory ${id} belongs to another project. Delete the entry, or delete its id line to add the text here.`;
  }
  if (memory.supersededBy !== null) {
    const head = headOf(memory, input.lookup);
    if (
      text === pageText(memory.content) ||
      (head !== undefined && text === pageText(head.content))
    ) {
      return undefined;
    }
    return (
      `memory ${id} was replaced${head === undefined ? '' : ` by ${head.id}`} since the page was written, and the entry was edited. ` +
      'Copy your edit, run `mnemo pages write --force` to refresh the page, then make the edit again.'
    );
  }
  const reasons = pageWithheldReasons(memory, input.projectKey).join(', ');
  return (
    `memory ${id} is not one the page may show (${reasons}). Delete the entry, or delete its id line ` +
    'to make the text a memory of your own.'
  );
}
