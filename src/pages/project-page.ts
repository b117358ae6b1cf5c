/**
 * The project page's I/O edge, shared by every channel that shows or writes it (`mnemo pages`, the MCP
 * tool, the web viewer, session start): read the trusted memories of a project through the store port,
 * check their cited files for staleness, render the page, look at the file it lives in and what a
 * person changed there, and write it back. Pure decisions live in core/pages; this file only gathers
 * their inputs and writes their output. It imports no edge.
 */
import { checkStaleness, scopeOf } from '../anchors/check-staleness.js';
import { fullBudget } from '../anchors/verify-anchors.js';
import type { MemoryStaleness } from '../core/anchors/staleness.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import type { Memory, MemoryId } from '../core/memory.js';
import { locateSection, spliceSection } from '../core/pages/managed-section.js';
import { PAGE_ORIGINS, PAGE_REVIEW_FILTER } from '../core/pages/page-eligibility.js';
import { PAGE_ENTRY_KINDS } from '../core/pages/page-format.js';
import { type ParsedPage, parsePage } from '../core/pages/parse-page.js';
import { type PagePlan, planPageEdits } from '../core/pages/plan-page-edits.js';
import { type ProjectPage, renderPageSection, selectPage } from '../core/pages/render-page.js';
import type { Logger } from '../log/log.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryStore } from '../store/store.js';
import { type PageFile, readPageFile, replacePageFile } from './page-file.js';

export interface PageDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly log: Logger;
}

/** Whose page, where its files are, and which file it lives in. */
export interface PageTarget {
  readonly projectKey: string;
  /** The working tree root its memories' cited files are checked against; null checks none. */
  readonly root: string | null;
  readonly path: string;
}

/** The page as it would be written now, and the file as it is. */
export interface PageState {
  readonly target: PageTarget;
  readonly file: PageFile;
  readonly page: ProjectPage;
  readonly staleness: ReadonlyMap<MemoryId, MemoryStaleness>;
  /** The managed section as it would be written. */
  readonly section: string;
  /** The file's text with that section spliced in. */
  readonly next: string;
  /** True when writing would change nothing. */
  readonly current: boolean;
  /**
   * What the file's section holds: nothing (no section yet), the plan of a person's edits, or the
   * reason it cannot be read.
   */
  readonly existing:
    | { readonly kind: 'none' }
    | { readonly kind: 'parsed'; readonly parsed: ParsedPage; readonly plan: PagePlan }
    | { readonly kind: 'malformed'; readonly error: MemoryError };
}

/** Memories read per store call. */
const PAGE_SIZE = 500;

/** The project's candidates: trusted-origin memories of the page's kinds, and its newest checkpoint. */
async function candidates(
  store: MemoryStore,
  projectKey: string,
): Promise<{ memories: Memory[]; checkpoint: Memory | undefined }> {
  const scope = { projectKey, includeGlobal: false };
  const memories: Memory[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await store.listMemories({
      scope,
      origins: PAGE_ORIGINS,
      quarantine: PAGE_REVIEW_FILTER,
      kinds: PAGE_ENTRY_KINDS,
      limit: PAGE_SIZE,
      offset,
    });
    memories.push(...page);
    if (page.length < PAGE_SIZE) break;
  }
  // The newest checkpoint whatever its origin: if it may not be shown, no older one stands in.
  const [checkpoint] = await store.listMemories({ scope, kinds: ['checkpoint'], limit: 1 });
  return { memories, checkpoint };
}

/** The page of `projectKey` as it would be written now, with the staleness of its entries. */
export async function buildProjectPage(
  deps: PageDeps,
  projectKey: string,
  root: string | null,
  persist: boolean,
): Promise<{
  page: ProjectPage;
  staleness: ReadonlyMap<MemoryId, MemoryStaleness>;
  section: string;
}> {
  const source = await candidates(deps.store, projectKey);
  const page = selectPage({ projectKey, ...source });
  const shown = page.entries.map((entry) => entry.memory);
  const staleness =
    root === null || shown.length === 0
      ? new Map<MemoryId, MemoryStaleness>()
      : (await checkStaleness(deps, scopeOf(projectKey, root, fullBudget(), persist), shown)).byId;
  return { page, staleness, section: renderPageSection(page, staleness) };
}

/**
 * Everything about the page of `target`: as it would be written, the file as it is, and what a person
 * changed in it. Throws INVALID_INPUT when the file cannot be read or its markers do not pair up
 * (nothing can be said about it then); a section that does not parse is reported as `malformed`.
 */
export async function inspectPage(
  deps: PageDeps,
  target: PageTarget,
  options: { persist: boolean },
): Promise<PageState> {
  const file = readPageFile(target.path);
  const location = locateSection(file.text);
  const built = await buildProjectPage(deps, target.projectKey, target.root, options.persist);
  const next = spliceSection(file.text, built.section);
  let existing: PageState['existing'] = { kind: 'none' };
  if (location !== undefined) {
    try {
      const parsed = parsePage(
        location.lines.map((line) => line.replace(/\r$/u, '')),
        location.line,
      );
      const lookup = await lookupFor(deps.store, parsed, built.page);
      existing = {
        kind: 'parsed',
        parsed,
        plan: planPageEdits({ projectKey: target.projectKey, parsed, current: built.page, lookup }),
      };
    } catch (error) {
      if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
      existing = { kind: 'malformed', error };
    }
  }
  return { target, file, ...built, next, current: next === file.text, existing };
}

/**
 * The memories the page's ids name that the current page does not show, with the memories that
 * replaced them, for the planner.
 */
async function lookupFor(
  store: MemoryStore,
  parsed: ParsedPage,
  current: ProjectPage,
): Promise<Map<MemoryId, Memory>> {
  const shown = new Set(current.entries.map((entry) => entry.memory.id));
  const lookup = new Map<MemoryId, Memory>();
  let wanted = [
    ...new Set(parsed.entries.flatMap((entry) => (entry.id === null ? [] : [entry.id]))),
  ].filter((id) => !shown.has(id));
  for (let hop = 0; hop < 32 && wanted.length > 0; hop += 1) {
    const found = await store.getMemories(wanted);
    for (const memory of found) lookup.set(memory.id, memory);
    wanted = found
      .flatMap((memory) => (memory.supersededBy === null ? [] : [memory.supersededBy]))
      .filter((id) => !lookup.has(id));
  }
  return lookup;
}

/** How many edits a state holds that writing would throw away. */
export function pendingEdits(state: PageState): number {
  return state.existing.kind === 'parsed'
    ? state.existing.plan.steps.length + state.existing.plan.conflicts.length
    : 0;
}

export interface WriteResult {
  readonly state: PageState;
  /** False when the file already held exactly this page. */
  readonly written: boolean;
}

/**
 * Writes the page into its file. Refuses (CONFLICT, nothing written) to throw away edits a person made
 * and has not read back, or a section that does not parse, unless `force`.
 */
export async function writeProjectPage(
  deps: PageDeps,
  target: PageTarget,
  options: { force: boolean },
): Promise<WriteResult> {
  const state = await inspectPage(deps, target, { persist: true });
  if (!options.force) refuseToDiscard(state);
  if (state.current) return { state, written: false };
  replacePageFile(state.file, state.next);
  deps.log.info('project page written', {
    path: target.path,
    entries: state.page.entries.length,
  });
  return { state, written: true };
}

/** Throws CONFLICT when writing `state` would lose what a person wrote into the page. */
export function refuseToDiscard(state: PageState): void {
  if (state.existing.kind === 'malformed') {
    throw new MemoryError(
      'CONFLICT',
      `${state.existing.error.message} Fix the page, or write it anew with --force (the section's current text is then replaced).`,
    );
  }
  const pending = pendingEdits(state);
  if (pending > 0) {
    throw new MemoryError(
      'CONFLICT',
      `${state.target.path} holds ${pending} edit${pending === 1 ? '' : 's'} not read back yet. ` +
        'Run `mnemo pages read` to see and apply them first, or write the page anew with --force (the edits are then lost).',
    );
  }
}
