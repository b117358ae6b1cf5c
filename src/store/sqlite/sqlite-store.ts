/**
 * `SqliteMemoryStore`: the MemoryStore port over one SQLite file (WAL, FTS5, sqlite-vec). Built by
 * `openSqliteStore`, which owns the driver; this file sees only the `SqliteLike` interface. Every write is
 * one `BEGIN IMMEDIATE` transaction; every driver error leaves through `translateSqliteError`.
 */
/* eslint-disable @typescript-eslint/require-await --
   The port is async and the driver synchronous: `async` is what turns a thrown validation or driver
   error into a rejected promise instead of a synchronous throw. */
import { type AnchorCheck, type AnchorSet, assertAnchorCheck } from '../../core/anchors/anchor.js';
import { MemoryError } from '../../core/errors.js';
import type {
  Memory,
  MemoryId,
  MemoryVector,
  NewMemory,
  QuarantineState,
} from '../../core/memory.js';
import { assertCopiedInjection, assertInjection, ledgerQuery } from '../injection-rules.js';
import { withReader } from '../reader-scope.js';
import {
  assertCounterStep,
  assertMaxAge,
  assertPage,
  assertText,
  normaliseInstant,
} from '../session-rules.js';
import type {
  AnchorSetWrite,
  AuditEntry,
  CounterRow,
  ExportedMemory,
  HeatInput,
  HeatPage,
  ImportOutcome,
  InjectionQuery,
  InjectionRecord,
  LexicalHit,
  LexicalSearchOptions,
  ListOptions,
  MemoryFilter,
  MemoryGroupCount,
  MemoryGroupQuery,
  MemoryPatch,
  MemoryStore,
  MendOutcome,
  NewInjection,
  ProvenanceMend,
  RememberClaim,
  RememberOptions,
  RememberOutcome,
  Scope,
  SearchOptions,
  SessionTaint,
  StoreCapabilities,
  StoreDescription,
  StoreStats,
  TermCounts,
  VectorHit,
} from '../store.js';
import {
  ACCESS_BATCH,
  assertClusterRecord,
  assertImportable,
  assertMergeDetail,
  assertReview,
  assertValidVector,
  prepareAnchorSet,
  prepareMemory,
} from '../write-rules.js';
import { readAnchorSets, recordChecksIn, saveAnchorSetsIn } from './sqlite-anchors.js';
import { appendAudit, auditTrailOf } from './sqlite-audit.js';
import { countGroupsIn, countIn, listHeatIn, listIn } from './sqlite-browse.js';
import { translateSqliteError } from './sqlite-errors.js';
import {
  exportPage,
  importAuditIn,
  importInjectionsIn,
  readAuditPage,
  readInjectionsPage,
} from './sqlite-history.js';
import { ledgerRowsOf, recordInjectionIn, sessionShownOf } from './sqlite-injections.js';
import { integrityProblems } from './sqlite-integrity.js';
import * as lexical from './sqlite-lexical.js';
import type { SqliteLike } from './sqlite-like.js';
import { mendProvenanceIn } from './sqlite-mend.js';
import { recordClusterIn, recordMergeIn, setQuarantineIn } from './sqlite-review.js';
import { existingRow, type MemoryRow, selectRowById, toMemory } from './sqlite-rows.js';
import { buildFilter, buildTermsQuery, termsSql } from './sqlite-search.js';
import * as sessions from './sqlite-sessions.js';
import { statsOf } from './sqlite-stats.js';
import type { SqliteStoreDeps } from './sqlite-store-deps.js';
import { immediateTransaction } from './sqlite-tx.js';
import type { SqliteVectorMirror } from './sqlite-vector-mirror.js';
import { vectorSearchIn } from './sqlite-vector-search.js';
import { deleteModel, putExtraVector, unembeddedRows, vectorsOf } from './sqlite-vectors.js';
import {
  forgetIn,
  importIn,
  recordAccessIn,
  rememberIn,
  setVectorIn,
  supersedeIn,
  updateIn,
  type WriteContext,
} from './sqlite-writes.js';

const EXPORT_PAGE = 200;

/** The SQLite implementation of the store port. */
export class SqliteMemoryStore implements MemoryStore {
  readonly capabilities: StoreCapabilities = {
    vectorSearch: true,
    vectorIndex: true,
    lexical: 'fts5',
    concurrentWriters: true,
  };
  readonly schemaVersion: number;
  readonly description: StoreDescription;
  readonly #deps: SqliteStoreDeps;
  #closed = false;

  constructor(deps: SqliteStoreDeps) {
    this.#deps = deps;
    this.schemaVersion = deps.schemaVersion;
    this.description = {
      backend: 'sqlite',
      location: deps.path,
      notes: ['vectors: sqlite-vec (exact k-NN)'],
    };
  }

  #read<T>(work: (db: SqliteLike) => T): T {
    if (this.#closed) {
      throw new MemoryError('STORE_UNAVAILABLE', 'The memory store is closed; open it again.');
    }
    try {
      return work(this.#deps.db);
    } catch (error) {
      throw translateSqliteError(error, this.#deps.path);
    }
  }

  #write<T>(action: string, work: (ctx: WriteContext) => T): T {
    return this.#read((db) => {
      const { onBeforeCommit } = this.#deps;
      return immediateTransaction(
        db,
        () =>
          work({
            db,
            ids: this.#deps.ids,
            at: this.#deps.clock.now().toISOString(),
            author: this.#deps.author,
          }),
        onBeforeCommit === undefined ? undefined : () => onBeforeCommit(action),
      );
    });
  }

  #scoped<T extends MemoryFilter>(filter: T): T {
    return withReader(filter, this.#deps.author?.user);
  }

  async remember(input: NewMemory, options?: RememberOptions): Promise<RememberOutcome> {
    const prepared = prepareMemory(input, options);
    return this.#write('remember', (ctx) => rememberIn(ctx, prepared));
  }

  async supersede(
    previousId: MemoryId,
    replacement: NewMemory,
    options?: RememberOptions,
  ): Promise<{ previous: Memory; current: Memory }> {
    const prepared = prepareMemory(replacement, options);
    return this.#write('supersede', (ctx) => supersedeIn(ctx, previousId, prepared));
  }

  async getMemory(id: MemoryId): Promise<Memory | undefined> {
    return this.#read((db) => {
      const row = selectRowById(db, id);
      return row === undefined ? undefined : toMemory(row);
    });
  }

  async getMemories(ids: readonly MemoryId[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    return this.#read((db) => {
      const rows = db
        .prepare('SELECT * FROM memories WHERE id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(ids)) as MemoryRow[];
      const byId = new Map(rows.map((row) => [row.id, toMemory(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    });
  }

  async updateMemory(id: MemoryId, patch: MemoryPatch): Promise<Memory> {
    return this.#write('update', (ctx) => updateIn(ctx, id, patch));
  }

  async forget(id: MemoryId, options: { actor?: string } = {}): Promise<boolean> {
    return this.#write('forget', (ctx) => forgetIn(ctx, id, options));
  }

  async recordAccess(ids: readonly MemoryId[]): Promise<void> {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += ACCESS_BATCH) {
      const batch = unique.slice(start, start + ACCESS_BATCH);
      this.#write('access', (ctx) => recordAccessIn(ctx, batch));
    }
  }

  async setVector(id: MemoryId, vector: MemoryVector): Promise<void> {
    assertValidVector(vector);
    this.#write('set-vector', (ctx) => setVectorIn(ctx, id, vector));
  }

  async setExtraVector(id: MemoryId, vector: MemoryVector): Promise<void> {
    assertValidVector(vector);
    this.#write('set-extra-vector', ({ db }) => {
      const row = existingRow(db, id);
      putExtraVector(db, row.seq, vector); // derived data, like the lexical index: no audit entry
    });
  }

  async getVectors(ids: readonly MemoryId[], model: string): Promise<Map<MemoryId, Float32Array>> {
    if (ids.length === 0) return new Map();
    return this.#read((db) => vectorsOf(db, ids, model));
  }

  async deleteVectorModel(model: string): Promise<number> {
    return this.#write('delete-vector-model', ({ db, at }) => {
      const removed = deleteModel(db, model);
      appendAudit(db, at, 'delete-vector-model', null, { model, removed });
      return removed;
    });
  }

  async termCounts(terms: readonly string[]): Promise<TermCounts> {
    return this.#read((db) => lexical.bodyTermCounts(db, terms));
  }

  async getModelState(model: string): Promise<Record<string, unknown> | undefined> {
    return this.#read((db) => lexical.readModelState(db, model));
  }

  async setModelState(model: string, state: Record<string, unknown>): Promise<void> {
    this.#write('model-state', ({ db, at }) => lexical.writeModelState(db, model, state, at));
  }

  async listUnembedded(model: string, limit: number, scope?: Scope): Promise<Memory[]> {
    if (!(limit > 0)) return [];
    const filterScope = scope === undefined ? {} : this.#scoped({ scope });
    // The shared filter: the scope when given, never superseded or rejected memories.
    const filter = buildFilter(filterScope);
    return this.#read((db) => unembeddedRows(db, model, Math.floor(limit), filter).map(toMemory));
  }

  async searchLexical(query: string, input: LexicalSearchOptions): Promise<LexicalHit[]> {
    const options = this.#scoped(input);
    if (!(options.limit > 0)) return [];
    return this.#read((db) => lexical.searchLexicalIn(db, String(query), options));
  }

  async searchTerms(terms: readonly string[], input: SearchOptions): Promise<LexicalHit[]> {
    const options = this.#scoped(input);
    const match = Array.isArray(terms) ? buildTermsQuery(terms) : null;
    if (match === null || !(options.limit > 0)) return [];
    const filter = buildFilter(options);
    return this.#read(
      (db) =>
        db
          .prepare(termsSql(filter))
          .all(match, ...filter.params, Math.floor(options.limit)) as LexicalHit[],
    );
  }

  async searchVector(vector: MemoryVector, input: SearchOptions): Promise<VectorHit[]> {
    const options = this.#scoped(input);
    return this.#read((db) => vectorSearchIn(db, vector, options, this.#deps.mirror));
  }

  /** The resident vector mirror when the store was opened with `residentVectors`. */
  get vectorMirror(): SqliteVectorMirror | undefined {
    return this.#deps.mirror;
  }

  async listMemories(options: ListOptions): Promise<Memory[]> {
    const scoped = this.#scoped(options);
    return this.#read((db) => listIn(db, scoped));
  }

  async countMemories(filter: MemoryFilter = {}): Promise<number> {
    const scoped = this.#scoped(filter);
    return this.#read((db) => countIn(db, scoped));
  }

  async countMemoryGroups(
    filter: MemoryFilter,
    query: MemoryGroupQuery,
  ): Promise<MemoryGroupCount[]> {
    const scoped = this.#scoped(filter);
    return this.#read((db) => countGroupsIn(db, scoped, query));
  }

  async listHeat(filter: MemoryFilter, page: HeatPage): Promise<HeatInput[]> {
    const scoped = this.#scoped(filter);
    return this.#read((db) => listHeatIn(db, scoped, page));
  }

  async stats(): Promise<StoreStats> {
    return this.#read((db) => statsOf(db, this.schemaVersion));
  }

  async auditTrail(id: MemoryId): Promise<AuditEntry[]> {
    return this.#read((db) => auditTrailOf(db, id));
  }

  async *exportMemories(): AsyncIterable<ExportedMemory> {
    // Keyset pages instead of one open cursor: a cursor would pin the connection across the caller's
    // awaits and block every other statement on it.
    let after = '';
    for (;;) {
      const page = this.#read((db) => exportPage(db, after, EXPORT_PAGE));
      yield* page;
      if (page.length < EXPORT_PAGE) return;
      after = page.at(-1)?.id ?? after;
    }
  }

  async importMemory(record: ExportedMemory): Promise<ImportOutcome> {
    assertImportable(record);
    return this.#write('import', (ctx) => importIn(ctx, record));
  }

  async mendProvenance(id: MemoryId, mend: ProvenanceMend): Promise<MendOutcome> {
    return this.#write('mend', (ctx) => mendProvenanceIn(ctx, id, mend));
  }

  async setQuarantine(id: MemoryId, state: QuarantineState, actor: string): Promise<Memory> {
    assertReview(state, actor);
    return this.#write('quarantine', (ctx) => setQuarantineIn(ctx, id, state, actor));
  }

  async recordMerge(id: MemoryId, detail: Record<string, unknown>): Promise<Memory> {
    assertMergeDetail(detail);
    return this.#write('merge', (ctx) => recordMergeIn(ctx, id, detail));
  }

  async recordCluster(ids: readonly MemoryId[], detail: Record<string, unknown>): Promise<void> {
    assertClusterRecord(ids, detail);
    return this.#write('cluster', (ctx) => recordClusterIn(ctx, ids, detail));
  }

  async markSessionTainted(
    sessionId: string,
    origin: string,
    toolName: string | null,
  ): Promise<void> {
    assertText(sessionId, 'A session id');
    assertText(origin, 'The tainting origin');
    this.#write('taint', (ctx) => sessions.markTaintedIn(ctx, sessionId, origin, toolName));
  }

  async clearSessionTaint(sessionId: string): Promise<void> {
    assertText(sessionId, 'A session id');
    this.#write('untaint', (ctx) => sessions.clearTaintIn(ctx, sessionId));
  }

  async getSessionTaint(sessionId: string): Promise<SessionTaint> {
    return this.#read((db) => sessions.readTaint(db, sessionId));
  }

  async recordRememberClaim(claim: Omit<RememberClaim, 'at'>): Promise<void> {
    assertText(claim.sessionId, 'A claim session id');
    assertText(claim.contentHash, 'A claim content hash');
    this.#write('claim', (ctx) =>
      sessions.recordClaimIn(ctx, { ...claim, toolUseId: claim.toolUseId ?? null }),
    );
  }

  async takeRememberClaim(
    contentHash: string,
    maxAgeMs: number,
  ): Promise<RememberClaim | undefined> {
    assertMaxAge(maxAgeMs);
    return this.#write('take-claim', (ctx) => sessions.takeClaimIn(ctx, contentHash, maxAgeMs));
  }

  async countSessionWrites(sessionId: string, origin: string, sinceIso: string): Promise<number> {
    const bound = normaliseInstant(sinceIso);
    return this.#read((db) => sessions.countSessionWritesIn(db, sessionId, origin, bound));
  }

  async bumpCounter(name: string, by = 1): Promise<void> {
    assertCounterStep(name, by);
    this.#write('counter', (ctx) => sessions.bumpCounterIn(ctx, name, by));
  }

  async readCounters(sinceDay: string): Promise<CounterRow[]> {
    return this.#read((db) => sessions.readCountersFrom(db, sinceDay));
  }

  async checkIntegrity(): Promise<string[]> {
    return this.#read((db) => integrityProblems(db));
  }

  async recordInjection(entry: NewInjection): Promise<InjectionRecord> {
    const valid = assertInjection(entry);
    return this.#write('inject', (ctx) => recordInjectionIn(ctx, valid));
  }

  async listInjections(query: InjectionQuery): Promise<InjectionRecord[]> {
    if (!(query.limit > 0)) return [];
    return this.#read((db) => ledgerRowsOf(db, ledgerQuery(query), this.#deps.author?.user));
  }

  async injectedIds(sessionId: string): Promise<MemoryId[]> {
    return this.#read((db) => sessionShownOf(db, sessionId, this.#deps.author?.user).full);
  }

  async indexedIds(sessionId: string): Promise<MemoryId[]> {
    return this.#read((db) => sessionShownOf(db, sessionId, this.#deps.author?.user).indexOnly);
  }

  async getAnchorSets(ids: readonly MemoryId[]): Promise<Map<MemoryId, AnchorSet>> {
    if (ids.length === 0) return new Map();
    return this.#read((db) => readAnchorSets(db, ids));
  }

  async saveAnchorSets(writes: readonly AnchorSetWrite[]): Promise<AnchorSet[]> {
    if (writes.length === 0) return [];
    for (const write of writes) prepareAnchorSet(write.set, write.memoryId);
    return this.#write('anchors', (ctx) => saveAnchorSetsIn(ctx, writes));
  }

  async recordAnchorChecks(checks: readonly AnchorCheck[]): Promise<void> {
    if (checks.length === 0) return;
    for (const check of checks) assertAnchorCheck(check);
    this.#write('anchor-checks', ({ db }) => recordChecksIn(db, checks));
  }

  async readAudit(afterSeq: number, limit: number): Promise<AuditEntry[]> {
    const page = assertPage(afterSeq, limit);
    return this.#read((db) => readAuditPage(db, page.afterSeq, page.limit));
  }

  async importAudit(source: string, entries: readonly AuditEntry[]): Promise<number> {
    assertText(source, 'The source of copied audit entries');
    return this.#write('import-audit', (ctx) => importAuditIn(ctx, source, entries));
  }

  async readInjections(afterSeq: number, limit: number): Promise<InjectionRecord[]> {
    const page = assertPage(afterSeq, limit);
    return this.#read((db) => readInjectionsPage(db, page.afterSeq, page.limit));
  }

  async importInjections(records: readonly InjectionRecord[]): Promise<number> {
    const valid = records.map(assertCopiedInjection);
    return this.#write('import-injections', (ctx) => importInjectionsIn(ctx, valid));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#deps.mirror?.close();
    this.#deps.db.close();
  }
}
