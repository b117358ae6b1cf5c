/**
 * The project page: which trusted memories it shows (page-eligibility.ts), in which section and order,
 * and the Markdown of the managed section. Deterministic: the same memories and staleness give the
 * same bytes, whatever order they arrive in, so the file diffs cleanly in review. Entries are oldest
 * first within a section (new ones append at its end); ties go by id. Each entry carries its memory
 * id, date, source and, when its cited files changed, a stale mark. Pure: no clock, no I/O.
 */
import { isStale, type MemoryStaleness } from '../anchors/staleness.js';
import type { Memory, MemoryId } from '../memory.js';
import { formatDay } from '../render/format-date.js';
import { flattenField, flattenNote } from '../render/sanitise-text.js';
import { type PageWithheldReason, pageWithheldReasons } from './page-eligibility.js';
import {
  BEGIN_MARKER,
  EMPTY_SECTION,
  END_MARKER,
  INDEX_CLOSE,
  INDEX_OPEN,
  MAX_SECTION_ENTRIES,
  PAGE_INTRO,
  PAGE_SECTIONS,
  PAGE_TITLE,
  type PageSectionKey,
  sectionOfKind,
} from './page-format.js';
import { escapeLine, pageText } from './page-text.js';

/** What the page is built from; eligibility is decided here, so any candidates may be passed. */
export interface PageSource {
  readonly projectKey: string;
  /** Candidate memories for the entry sections (decisions, conventions, preferences, fixes). */
  readonly memories: readonly Memory[];
  /**
   * The project's newest checkpoint, whatever its origin, or undefined. If it may not be shown the
   * section stays empty: an older checkpoint is an outdated state, not a stand-in.
   */
  readonly checkpoint?: Memory | undefined;
}

export interface PageEntry {
  readonly section: PageSectionKey;
  readonly memory: Memory;
  /** The text as the page shows it (`pageText`). */
  readonly text: string;
}

export interface ProjectPage {
  /** In page order. */
  readonly entries: readonly PageEntry[];
  /** Eligible memories left out because their section was full (the oldest), by section. */
  readonly omitted: Readonly<Partial<Record<PageSectionKey, number>>>;
  /** Candidates that may not be on the page, with every reason (never rendered). */
  readonly withheld: readonly { id: MemoryId; reasons: readonly PageWithheldReason[] }[];
}

function byAge(a: Memory, b: Memory): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;
}

/** Chooses the page's entries from `source`. */
export function selectPage(source: PageSource): ProjectPage {
  const withheld: { id: MemoryId; reasons: PageWithheldReason[] }[] = [];
  const bySection = new Map<PageSectionKey, Memory[]>();
  const seen = new Set<MemoryId>();
  const admit = (memory: Memory, section: PageSectionKey | undefined): void => {
    if (seen.has(memory.id)) return;
    seen.add(memory.id);
    const reasons = pageWithheldReasons(memory, source.projectKey);
    if (section === undefined && reasons.length === 0) reasons.push('kind_not_on_page');
    if (reasons.length > 0 || section === undefined) {
      withheld.push({ id: memory.id, reasons });
      return;
    }
    bySection.set(section, [...(bySection.get(section) ?? []), memory]);
  };
  for (const memory of source.memories) {
    const section = memory.kind === 'checkpoint' ? undefined : sectionOfKind(memory.kind)?.key;
    admit(memory, section);
  }
  if (source.checkpoint !== undefined) {
    admit(source.checkpoint, source.checkpoint.kind === 'checkpoint' ? 'checkpoint' : undefined);
  }

  const entries: PageEntry[] = [];
  const omitted: Partial<Record<PageSectionKey, number>> = {};
  for (const section of PAGE_SECTIONS) {
    const memories = [...(bySection.get(section.key) ?? [])].sort(byAge);
    const limit = section.key === 'checkpoint' ? 1 : MAX_SECTION_ENTRIES;
    const kept = memories.slice(Math.max(0, memories.length - limit));
    if (memories.length > kept.length) omitted[section.key] = memories.length - kept.length;
    for (const memory of kept) {
      entries.push({ section: section.key, memory, text: pageText(memory.content) });
    }
  }
  withheld.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { entries, omitted, withheld };
}

/**
 * The id line of an entry: id, day, origin (and the tool or channel it came through), the labels a
 * reader should weigh. Every field is flattened, so stored values cannot add lines.
 */
export function idLine(memory: Memory, staleness: MemoryStaleness | undefined): string {
  const labels = [formatDay(memory.createdAt), flattenField(memory.origin, 'unknown')];
  const tool = memory.originTool === null ? '' : flattenField(memory.originTool, '');
  if (tool !== '') labels[1] = `${labels[1]} via ${tool}`;
  if (memory.quarantine === 'approved') labels.push('approved');
  if (memory.pinned) labels.push('pinned');
  if (isStale(staleness)) {
    const note = staleness?.label === undefined ? undefined : flattenNote(staleness.label);
    labels.push(note === undefined ? 'stale' : `stale: ${note.replace(/`/gu, "'")}`);
  }
  return `  \`mnemo ${memory.id}\` · ${labels.join(' · ')}`;
}

/** The lines of one entry: its text inside a list item, then its id line. */
export function entryLines(entry: PageEntry, staleness?: MemoryStaleness): string[] {
  const [first = '', ...rest] = entry.text.split('\n');
  return [
    `- ${escapeLine(first)}`,
    ...rest.map((line) => (line === '' ? '' : `  ${escapeLine(line)}`)),
    idLine(entry.memory, staleness),
  ];
}

/**
 * The managed section, from its begin marker to its end marker, lines joined with `\n` and no final
 * line break (the file's own line endings are the splicer's business).
 */
export function renderPageSection(
  page: ProjectPage,
  staleness: ReadonlyMap<MemoryId, MemoryStaleness> = new Map(),
): string {
  const lines = [BEGIN_MARKER, PAGE_TITLE, '', PAGE_INTRO];
  for (const section of PAGE_SECTIONS) {
    lines.push('', `### ${section.heading}`, '');
    const entries = page.entries.filter((entry) => entry.section === section.key);
    if (entries.length === 0) lines.push(EMPTY_SECTION);
    entries.forEach((entry, index) => {
      if (index > 0) lines.push('');
      lines.push(...entryLines(entry, staleness.get(entry.memory.id)));
    });
    const omitted = page.omitted[section.key] ?? 0;
    if (omitted > 0) {
      lines.push(
        '',
        `_${omitted} older ${omitted === 1 ? 'entry' : 'entries'} not shown (\`mnemo list\`)._`,
      );
    }
  }
  const ids = [...page.entries.map((entry) => entry.memory.id)].sort();
  lines.push('', INDEX_OPEN, ...ids, INDEX_CLOSE, END_MARKER);
  return lines.join('\n');
}
