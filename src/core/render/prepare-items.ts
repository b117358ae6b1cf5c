/**
 * Turns recalled items into the sanitised, flattened pieces that both the text and the JSON renderers
 * print, so the two can never disagree about what is safe.
 */
import { UNKNOWN_ORIGIN } from '../memory.js';
import { daysBetween, formatDay } from './format-date.js';
import { neutraliseMarkers } from './neutralise-markers.js';
import { flattenField, flattenNote, normaliseControls, sanitiseBody } from './sanitise-text.js';
import { collectRemoteImageLabels } from './strip-images.js';

/**
 * One memory to render. A `Memory` from the store fits as is; `flags` carry read-time labels such as
 * `stale`, `quarantined` or `untrusted`.
 */
export interface RenderItem {
  id: string;
  content: string;
  /** Missing or blank renders as `unknown` (fail closed). */
  origin?: string | null;
  /** ISO-8601; only the `YYYY-MM-DD` part is shown. */
  createdAt: string;
  kind: string;
  flags?: readonly string[];
  /**
   * A read-time remark at the end of the header, in words (why a memory may be out of date: "cites
   * src/db.ts, changed 4 commits ago"). Flattened to one short line and neutralised like stored text.
   */
  note?: string;
}

export interface PreparedItem {
  id: string;
  kind: string;
  origin: string;
  /** `YYYY-MM-DD` or `date-unknown`. */
  date: string;
  /** Whole days between `createdAt` and the caller's `now`, when both are known. */
  ageDays: number | undefined;
  flags: string[];
  /** The flattened note, or undefined. */
  note: string | undefined;
  /** Sanitised body with `\n` line breaks, not yet quoted. */
  body: string;
}

/** Sanitises every item of one emission; image reference definitions are collected across all of them. */
export function prepareItems(
  items: readonly RenderItem[],
  now: string | undefined,
): PreparedItem[] {
  const remoteLabels = collectRemoteImageLabels(
    items.map((item) => normaliseControls(item.content)),
  );
  return items.map((item) => ({
    id: flattenField(item.id, 'unknown'),
    kind: flattenField(item.kind, 'unknown'),
    origin: flattenField(item.origin, UNKNOWN_ORIGIN),
    date: formatDay(item.createdAt),
    ageDays: now === undefined ? undefined : daysBetween(item.createdAt, now),
    flags: [...new Set((item.flags ?? []).map((flag) => flattenField(flag, '')))].filter(
      (flag) => flag !== '',
    ),
    note: item.note === undefined ? undefined : flattenNote(item.note),
    body: sanitiseBody(item.content, remoteLabels),
  }));
}

/**
 * `[n] id=… · kind · origin=… · YYYY-MM-DD (Nd ago) · flag …`, always a single line. Neutralised again as
 * a whole because fields that are harmless one by one can spell a marker side by side
 * (`…end_mnemo` + ` · recall`).
 */
export function headerLine(position: number, item: PreparedItem): string {
  const date = item.ageDays === undefined ? item.date : `${item.date} (${item.ageDays}d ago)`;
  const fields = [
    item.kind,
    `origin=${item.origin}`,
    date,
    ...item.flags,
    ...(item.note === undefined ? [] : [item.note]),
  ];
  return `[${position}] ${neutraliseMarkers([`id=${item.id}`, ...fields].join(' · '))}`;
}

/** Every line of `body` prefixed with `> `, so no stored line can pass for a frame or header line. */
export function quoteBody(body: string): string {
  return body
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
