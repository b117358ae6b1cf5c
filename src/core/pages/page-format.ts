/**
 * The project page's fixed vocabulary: the markers that delimit the section mnemo manages inside a
 * Markdown file, its headings, its sections and the kinds each one holds, and the shape of an entry's
 * id line. The renderer (render-page.ts) writes exactly these and the parser (parse-page.ts) reads
 * exactly these, so the two cannot drift apart. Pure.
 */
import type { MemoryKind } from '../memory.js';

/** Bumped when the page's shape changes so that an older mnemo refuses a newer page. */
export const PAGE_FORMAT_VERSION = 1;

/** What the first line of the managed section starts with (the rest is a version and a hint). */
export const BEGIN_MARKER_PREFIX = '<!-- mnemo:page:begin';
export const BEGIN_MARKER = `${BEGIN_MARKER_PREFIX} v${PAGE_FORMAT_VERSION}: kept by \`mnemo pages write\`; edit the entries, then run \`mnemo pages read\` -->`;
/** The last line of the managed section, exactly. */
export const END_MARKER = '<!-- mnemo:page:end -->';
/**
 * The index: an HTML comment (invisible when the Markdown is rendered) listing the id of every entry
 * the page was written with, one a line. It is how `pages read` tells a deleted entry from a memory
 * written after the page: only an id in the index whose entry is gone is a deletion.
 */
export const INDEX_OPEN = '<!-- mnemo:page:index';
export const INDEX_CLOSE = '-->';

export const PAGE_TITLE = '## Project memory';
export const PAGE_INTRO =
  'Kept by mnemo from memories a person wrote or approved. Edit, add or delete entries, then run ' +
  '`mnemo pages read` to turn the edits into memories. The `` `mnemo <id>` `` line under an entry links it ' +
  'to its memory: keep it when you edit the entry, leave it out when you add one.';
/** The line of a section without entries; the parser skips any line set in underscores. */
export const EMPTY_SECTION = '_None yet._';

export const PAGE_SECTION_KEYS = [
  'decisions',
  'conventions',
  'preferences',
  'fixes',
  'checkpoint',
] as const;
export type PageSectionKey = (typeof PAGE_SECTION_KEYS)[number];

export interface PageSection {
  readonly key: PageSectionKey;
  /** The `###` heading, exactly as rendered (the parser compares case-insensitively). */
  readonly heading: string;
  /** Kinds of memory shown in it; a memory of another kind moved here takes `newKind`. */
  readonly kinds: readonly MemoryKind[];
  /** The kind of a memory added to it on the page. */
  readonly newKind: MemoryKind;
}

/**
 * The sections in page order. Notes and facts are the project's conventions (how things are done
 * here); errors sit with the fixes, as known problems. Captures are raw tool events, not curated
 * knowledge, and never appear. Only the project's newest checkpoint is shown.
 */
export const PAGE_SECTIONS: readonly PageSection[] = [
  { key: 'decisions', heading: 'Decisions', kinds: ['decision'], newKind: 'decision' },
  { key: 'conventions', heading: 'Conventions', kinds: ['note', 'fact'], newKind: 'note' },
  { key: 'preferences', heading: 'Preferences', kinds: ['preference'], newKind: 'preference' },
  { key: 'fixes', heading: 'Known fixes', kinds: ['fix', 'error'], newKind: 'fix' },
  { key: 'checkpoint', heading: 'Last checkpoint', kinds: ['checkpoint'], newKind: 'checkpoint' },
];

/** Kinds the page shows outside the checkpoint section. */
export const PAGE_ENTRY_KINDS: readonly MemoryKind[] = PAGE_SECTIONS.filter(
  (section) => section.key !== 'checkpoint',
).flatMap((section) => section.kinds);

/** The section a memory of `kind` belongs in, or undefined when the page does not show that kind. */
export function sectionOfKind(kind: MemoryKind): PageSection | undefined {
  return PAGE_SECTIONS.find((section) => section.kinds.includes(kind));
}

export function sectionByKey(key: PageSectionKey): PageSection {
  const section = PAGE_SECTIONS.find((candidate) => candidate.key === key);
  if (section === undefined) throw new Error(`unknown page section ${key}`);
  return section;
}

/** Most entries a section shows (the newest); a page is read into every session, not an archive. */
export const MAX_SECTION_ENTRIES = 100;

/** Where an entry's id line starts: two spaces (the list item's indentation) and a code span. */
export const ID_LINE_START = '  `mnemo ';
/** Any line that begins like an id line, at whatever indentation: checked strictly by the parser. */
export const ID_LINE_LIKE = /^ *`mnemo /u;
/** A well-formed id line; group 1 is the id, group 2 the labels after it (ignored on reading). */
export const ID_LINE = /^ {2}`mnemo ([0-9A-HJKMNP-TV-Z]{26})`(?: · (.*))?$/u;
