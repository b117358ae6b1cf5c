/**
 * Validation of injection ledger entries and queries, shared by every backend (threat model R9): bad
 * input is refused with a next step before it takes any lock.
 */
import { MemoryError } from '../core/errors.js';
import { isMemoryId, type MemoryId } from '../core/memory.js';
import type {
  InjectionEvent,
  InjectionQuery,
  InjectionRecord,
  NewInjection,
  WithheldEntry,
} from './store.js';

/** The events of the port's vocabulary; anything else is refused before it reaches the table. */
export const INJECTION_EVENTS: readonly InjectionEvent[] = ['session-start', 'prompt-recall'];

/** Ids per row. A token budget of a few thousand fits a few dozen memories; more is a caller bug. */
export const MAX_INJECTED_IDS = 500;
/** Longest session id, source or project key kept; the hook payload schema bounds them the same way. */
const MAX_TEXT = 4096;

function invalid(message: string): MemoryError {
  return new MemoryError('INVALID_INPUT', message);
}

function optionalText(value: unknown, what: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT) {
    throw invalid(`${what} must be null or a string of 1–${MAX_TEXT} characters.`);
  }
  return value;
}

/** Reasons per withheld entry; the gate knows far fewer. */
const MAX_REASONS = 16;

function assertIds(values: unknown): MemoryId[] {
  const ids: MemoryId[] = [];
  for (const id of values as unknown[]) {
    if (typeof id !== 'string' || !isMemoryId(id)) {
      throw invalid(`"${String(id).slice(0, 40)}" is not a memory id (a 26-character ULID).`);
    }
    ids.push(id);
  }
  return ids;
}

function assertWithheld(values: unknown): WithheldEntry[] {
  if (values === undefined) return [];
  if (!Array.isArray(values) || values.length > MAX_INJECTED_IDS) {
    throw invalid(`An injection lists at most ${MAX_INJECTED_IDS} withheld memories.`);
  }
  return values.map((value: unknown) => {
    const entry = value as Partial<WithheldEntry> | null;
    const id = entry?.id;
    if (typeof id !== 'string' || !isMemoryId(id)) {
      throw invalid(`"${String(id).slice(0, 40)}" is not a memory id (a 26-character ULID).`);
    }
    const reasons = entry?.reasons;
    if (
      !Array.isArray(reasons) ||
      reasons.length === 0 ||
      reasons.length > MAX_REASONS ||
      reasons.some((r) => typeof r !== 'string' || r.length === 0 || r.length > 64)
    ) {
      throw invalid(`Withheld memory ${id} needs 1–${MAX_REASONS} short reasons.`);
    }
    return { id, reasons: [...reasons] };
  });
}

/** The index-entry ids of an injection: each one of its injected ids, once. */
function assertIndexIds(values: unknown, injected: readonly MemoryId[]): MemoryId[] {
  if (values === undefined) return [];
  if (!Array.isArray(values) || values.length > MAX_INJECTED_IDS) {
    throw invalid(`An injection lists at most ${MAX_INJECTED_IDS} index entries.`);
  }
  const ids = assertIds(values);
  const rendered = new Set(injected);
  const stray = ids.find((id) => !rendered.has(id));
  if (stray !== undefined) {
    throw invalid(`Index entry ${stray} is not one of the injection's memory ids.`);
  }
  if (new Set(ids).size !== ids.length) throw invalid('An injection lists an index entry twice.');
  return ids;
}

/** Validates an injection outside the transaction, so bad input never takes the write lock. */
export function assertInjection(
  entry: NewInjection,
): NewInjection & { memoryIds: MemoryId[]; indexIds: MemoryId[]; withheld: WithheldEntry[] } {
  const { sessionId, event, memoryIds, tokens } = entry;
  if (
    typeof sessionId !== 'string' ||
    sessionId.trim().length === 0 ||
    sessionId.length > MAX_TEXT
  ) {
    throw invalid('An injection needs the non-empty session id it was injected into.');
  }
  if (!INJECTION_EVENTS.includes(event)) {
    throw invalid(
      `Unknown injection event "${String(event).slice(0, 40)}"; use one of: ${INJECTION_EVENTS.join(', ')}.`,
    );
  }
  if (!Array.isArray(memoryIds) || memoryIds.length > MAX_INJECTED_IDS) {
    throw invalid(`An injection lists at most ${MAX_INJECTED_IDS} memory ids.`);
  }
  const ids = assertIds(memoryIds);
  const indexIds = assertIndexIds(entry.indexIds, ids);
  const withheld = assertWithheld(entry.withheld);
  if (ids.length === 0 && withheld.length === 0) {
    throw invalid('An injection lists injected or withheld memory ids; record nothing otherwise.');
  }
  if (!Number.isSafeInteger(tokens) || tokens < 0) {
    throw invalid(`An injection's token count must be a whole number >= 0; got ${tokens}.`);
  }
  return {
    sessionId,
    event,
    source: optionalText(entry.source, 'An injection source'),
    projectKey: optionalText(entry.projectKey, 'An injection project key'),
    memoryIds: ids,
    indexIds,
    tokens,
    withheld,
  };
}

/** Normalises the `since` bound of a ledger query to the stored `toISOString()` shape. */
export function normaliseSince(query: InjectionQuery): string | undefined {
  if (query.since === undefined) return undefined;
  const time = Date.parse(query.since);
  if (Number.isNaN(time)) {
    throw invalid(`since "${String(query.since).slice(0, 40)}" is not an ISO-8601 date or time.`);
  }
  return new Date(time).toISOString();
}

/** Validates a ledger row copied from another store: every rule of a new one, an ISO time, an author. */
export function assertCopiedInjection(record: InjectionRecord): InjectionRecord {
  const valid = assertInjection(record);
  if (typeof record.at !== 'string' || Number.isNaN(Date.parse(record.at))) {
    throw invalid(
      `A copied injection needs its ISO-8601 time; got ${String(record.at).slice(0, 40)}.`,
    );
  }
  return {
    ...valid,
    seq: record.seq,
    at: new Date(Date.parse(record.at)).toISOString(),
    author: optionalText(record.author ?? null, 'A copied injection author'),
  };
}

/** A ledger query with its `since` normalised and absent fields left out, as the adapters read it. */
export function ledgerQuery(query: InjectionQuery): {
  limit: number;
  sessionId?: string;
  since?: string;
} {
  const since = normaliseSince(query);
  return {
    limit: query.limit,
    ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }),
    ...(since === undefined ? {} : { since }),
  };
}
