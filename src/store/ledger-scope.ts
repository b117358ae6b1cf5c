/**
 * Who reads which rows of the injection ledger, shared by every backend (threat model R4 in a team
 * store). A ledger row says whose session received which memories and which candidates were withheld
 * from it: on a shared store that is another person's activity, and its ids can name their private
 * memories. So a ledger read is scoped like a memory read, to the author the store was opened as:
 *
 * - the reader's own rows are returned;
 * - rows of another author never are;
 * - rows of no recorded author (written before the ledger kept authors) are returned only while no
 *   other author has written to the store, neither a memory nor a ledger row. On one person's store
 *   that keeps their whole history; once a teammate has written, nobody can tell whose session an
 *   unauthored row was, so it is shown to nobody reading as an author (failing closed);
 * - in the rows returned, ids of memories that are private to another author (a memory shared once and
 *   withdrawn since) are left out.
 *
 * A store opened without an author (copying a store, tests) reads every row whole.
 */
import type { InjectionRecord } from './store.js';

/** How a backend applies the scope to one ledger read; undefined: a store opened without an author. */
export interface LedgerReader {
  /** The author whose rows are read. */
  user: string;
  /** Whether rows of no recorded author are read too (no other author has written to the store). */
  unauthoredRows: boolean;
}

/** Every memory id a page of rows names, injected or withheld, each once. */
export function ledgerIds(rows: readonly InjectionRecord[]): string[] {
  const ids = new Set<string>();
  for (const row of rows) {
    for (const id of row.memoryIds) ids.add(id);
    for (const entry of row.withheld) ids.add(entry.id);
  }
  return [...ids];
}

/** The rows without the ids of `hidden` (memories private to another author). */
export function withoutHiddenIds(
  rows: readonly InjectionRecord[],
  hidden: ReadonlySet<string>,
): InjectionRecord[] {
  if (hidden.size === 0) return [...rows];
  return rows.map((row) => ({
    ...row,
    memoryIds: row.memoryIds.filter((id) => !hidden.has(id)),
    indexIds: row.indexIds.filter((id) => !hidden.has(id)),
    withheld: row.withheld.filter((entry) => !hidden.has(entry.id)),
  }));
}
