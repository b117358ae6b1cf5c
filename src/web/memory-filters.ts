/**
 * The memory list's filters beyond what the store filters by itself: a source given as a site or a
 * page, a date range given as days, and staleness, which is not a column but a check of the memory's
 * cited files against its project's working tree (web-staleness.ts).
 */
import { recallBudget } from '../anchors/verify-anchors.js';
import type { MemoryStaleness } from '../core/anchors/staleness.js';
import { MemoryError } from '../core/errors.js';
import { normaliseDomain, sourceUrlOf } from '../core/origin/source-url.js';
import type { MemoryFilter } from '../store/store.js';
import type { WebContext } from './web-context.js';
import { stalenessOfMany } from './web-staleness.js';
import { type MemoryPage, type MemoryRow, memoryRow } from './web-views.js';

/** `stale`: a cited file changed, moved or was deleted (stale or gone); `fresh`: every one unchanged. */
export const STALENESS_FILTERS = ['stale', 'fresh'] as const;
export type StalenessFilter = (typeof STALENESS_FILTERS)[number];

/**
 * Memories a staleness filter checks, newest first: checking costs file reads, so a filter over a
 * larger store says it looked at the newest ones only (`scanned`, `truncated`).
 */
export const MAX_STALENESS_SCAN = 2000;
const SCAN_PAGE = 200;

/** A page address filters by that page; anything else is a site (its subdomains included). */
export function sourceFilter(source: string): MemoryFilter {
  if (/^https?:\/\//iu.test(source)) {
    const url = sourceUrlOf(source);
    if (url === null)
      throw new MemoryError('INVALID_INPUT', 'Bad parameter "source": not a web address.');
    return { sourceUrls: [url] };
  }
  const domain = normaliseDomain(source);
  if (domain === null) {
    throw new MemoryError(
      'INVALID_INPUT',
      'Bad parameter "source": give a site (example.com) or a page address.',
    );
  }
  return { sourceDomains: [domain] };
}

/** The first instant of a day (a full ISO time is taken as it is). */
export function dayStart(day: string): string {
  return day.length === 10 ? `${day}T00:00:00.000Z` : new Date(day).toISOString();
}

/** The last instant of a day: "until 2026-06-15" includes that day. */
export function dayEnd(day: string): string {
  return day.length === 10 ? `${day}T23:59:59.999Z` : new Date(day).toISOString();
}

/** A row with what the check found. */
export function withStaleness(row: MemoryRow, staleness: MemoryStaleness | undefined): MemoryRow {
  row.staleness = staleness?.status ?? 'unchecked';
  row.staleLabel = staleness?.label ?? null;
  return row;
}

function matches(filter: StalenessFilter, staleness: MemoryStaleness | undefined): boolean {
  const status = staleness?.status;
  return filter === 'stale' ? status === 'stale' || status === 'gone' : status === 'fresh';
}

/** One page of the memories of `filter` whose staleness matches, newest first. */
export async function stalePage(
  ctx: Pick<WebContext, 'app'>,
  filter: MemoryFilter,
  wanted: StalenessFilter,
  page: { offset: number; limit: number },
): Promise<MemoryPage & { scanned: number; truncated: boolean }> {
  const { store } = ctx.app;
  const hits: MemoryRow[] = [];
  let scanned = 0;
  let truncated = false;
  for (;;) {
    const batch = await store.listMemories({ ...filter, limit: SCAN_PAGE, offset: scanned });
    const staleness = await stalenessOfMany(ctx, batch, recallBudget());
    for (const memory of batch) {
      const state = staleness.get(memory.id);
      if (matches(wanted, state)) hits.push(withStaleness(memoryRow(memory), state));
    }
    scanned += batch.length;
    if (batch.length < SCAN_PAGE) break;
    if (scanned >= MAX_STALENESS_SCAN) {
      truncated = true;
      break;
    }
  }
  return {
    total: hits.length,
    offset: page.offset,
    limit: page.limit,
    items: hits.slice(page.offset, page.offset + page.limit),
    scanned,
    truncated,
  };
}
