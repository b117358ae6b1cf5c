/**
 * `PostgresMemoryStore`: the MemoryStore port over one schema of a PostgreSQL database, shared by many
 * processes and machines. Built by `openPostgresStoreOn` (postgres-open.ts); this file sees only the
 * `PgLike` interface. Every write is one transaction on one pooled connection, retried when PostgreSQL
 * reports a serialization failure, a deadlock or a lost race on a unique key; every driver error leaves
 * through `translatePostgresError`.
 */
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
  assertDay,
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
import type { PgQueryable } from './pg-like.js';
import { readAnchorSets, recordChecksIn, saveAnchorSetsIn } from './postgres-anchors.js';
import { auditTrailOf } from './postgres-audit.js';
import { countGroupsIn, countIn, listHeatIn, listIn } from './postgres-browse.js';
import { translatePostgresError } from './postgres-errors.js';
import { EXPORT_PAGE, exportPage } from './postgres-export.js';
import {
  importAuditIn,
  importInjectionsIn,
  readAuditPage,
  readInjectionsPage,
} from './postgres-history.js';
import * as injections from './postgres-injections.js';
import { integrityProblems } from './postgres-integrity.js';
import * as lexical from './postgres-lexical.js';
import { mendProvenanceIn } from './postgres-mend.js';
import { M_COLUMNS, type PgMemoryRow, selectRowById, toMemory } from './postgres-rows.js';
import { buildFilter, Params, termsSql } from './postgres-search.js';
import * as sessions from './postgres-sessions.js';
import { storeStats } from './postgres-stats.js';
import type { PostgresStoreDeps } from './postgres-store-deps.js';
import { runWrite } from './postgres-tx.js';
import { searchVectorIn } from './postgres-vector-search.js';
import * as vectors from './postgres-vectors.js';
import * as writes from './postgres-writes.js';

/** The PostgreSQL implementation of the store port. */
export class PostgresMemoryStore implements MemoryStore {
  readonly capabilities: StoreCapabilities;
  readonly schemaVersion: number;
  readonly description: StoreDescription;
  readonly #deps: PostgresStoreDeps;
  #closed = false;

  constructor(deps: PostgresStoreDeps) {
    this.#deps = deps;
    this.schemaVersion = deps.schemaVersion;
    this.description = deps.description;
    this.capabilities = {
      vectorSearch: true,
      vectorIndex: deps.vectors.schema !== null,
      lexical: 'tsvector',
      concurrentWriters: true,
    };
  }

  #open(): void {
    if (this.#closed) {
      throw new MemoryError('STORE_UNAVAILABLE', 'The memory store is closed; open it again.');
    }
  }

  async #read<T>(work: (db: PgQueryable) => Promise<T>): Promise<T> {
    this.#open();
    try {
      return await work(this.#deps.db);
    } catch (error) {
      throw translatePostgresError(error, this.#deps.where);
    }
  }

  async #write<T>(action: string, work: (ctx: writes.PgWriteContext) => Promise<T>): Promise<T> {
    this.#open();
    try {
      return await runWrite(this.#deps, action, work);
    } catch (error) {
      throw translatePostgresError(error, this.#deps.where);
    }
  }

  #scoped<T extends MemoryFilter>(filter: T): T {
    return withReader(filter, this.#deps.author?.user);
  }

  async remember(input: NewMemory, options?: RememberOptions): Promise<RememberOutcome> {
    const prepared = prepareMemory(input, options);
    return this.#write('remember', (ctx) => writes.rememberIn(ctx, prepared));
  }

  async supersede(
    previousId: MemoryId,
    replacement: NewMemory,
    options?: RememberOptions,
  ): Promise<{ previous: Memory; current: Memory }> {
    const prepared = prepareMemory(replacement, options);
    return this.#write('supersede', (ctx) => writes.supersedeIn(ctx, previousId, prepared));
  }

  async getMemory(id: MemoryId): Promise<Memory | undefined> {
    return (await this.getMemories([id]))[0];
  }

  async getMemories(ids: readonly MemoryId[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    return this.#read(async (db) => {
      const { rows } = await db.query<PgMemoryRow>(
        `SELECT ${M_COLUMNS} FROM memories m WHERE m.id = ANY($1::text[])`,
        [[...ids]],
      );
      const byId = new Map(rows.map((row) => [row.id, toMemory(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    });
  }

  async updateMemory(id: MemoryId, patch: MemoryPatch): Promise<Memory> {
    return this.#write('update', (ctx) => writes.updateIn(ctx, id, patch));
  }

  async forget(id: MemoryId, options: { actor?: string } = {}): Promise<boolean> {
    return this.#write('forget', (ctx) => writes.forgetIn(ctx, id, options));
  }

  async recordAccess(ids: readonly MemoryId[]): Promise<void> {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += ACCESS_BATCH) {
      const batch = unique.slice(start, start + ACCESS_BATCH);
      await this.#write('access', (ctx) => writes.recordAccessIn(ctx, batch));
    }
  }

  async setVector(id: MemoryId, vector: MemoryVector): Promise<void> {
    assertValidVector(vector);
    await this.#write('set-vector', (ctx) => writes.setVectorIn(ctx, id, vector));
  }

  async setExtraVector(id: MemoryId, vector: MemoryVector): Promise<void> {
    assertValidVector(vector);
    await this.#write('set-extra-vector', async (ctx) => {
      const row = await selectRowById(ctx.db, id);
      if (row === undefined) {
        throw new MemoryError('NOT_FOUND', `No memory ${id}; run \`mnemo list\` to see ids.`);
      }
      // Derived data, like the lexical index: no audit entry.
      await vectors.putExtraVector(ctx.db, ctx.vectors, Number(row.seq), vector);
    });
  }

  async getVectors(ids: readonly MemoryId[], model: string): Promise<Map<MemoryId, Float32Array>> {
    if (ids.length === 0) return new Map();
    return this.#read((db) => vectors.vectorsOf(db, ids, model));
  }

  async deleteVectorModel(model: string): Promise<number> {
    return this.#write('delete-vector-model', async (ctx) => {
      const removed = await vectors.deleteModel(ctx.db, model);
      ctx.audit.add(ctx.at, 'delete-vector-model', null, { model, removed });
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
    await this.#write('model-state', (ctx) =>
      lexical.writeModelState(ctx.db, model, state, ctx.at),
    );
  }

  async listUnembedded(model: string, limit: number, scope?: Scope): Promise<Memory[]> {
    if (!(limit > 0)) return [];
    const filterScope = scope === undefined ? {} : this.#scoped({ scope });
    const params = new Params();
    const where = buildFilter(filterScope, params);
    const n = params.add(Math.floor(limit));
    return this.#read(async (db) => {
      const lacks = await vectors.lacksVectorSql(db, model);
      const { rows } = await db.query<PgMemoryRow>(
        `SELECT ${M_COLUMNS} FROM memories m WHERE ${where} AND ${lacks} ORDER BY m.seq LIMIT ${n}`,
        params.values,
      );
      return rows.map(toMemory);
    });
  }

  async searchLexical(query: string, input: LexicalSearchOptions): Promise<LexicalHit[]> {
    const options = this.#scoped(input);
    if (!(options.limit > 0)) return [];
    return this.#read((db) => lexical.searchLexicalIn(db, String(query), options));
  }

  async searchTerms(terms: readonly string[], input: SearchOptions): Promise<LexicalHit[]> {
    const options = this.#scoped(input);
    if (!Array.isArray(terms) || !(options.limit > 0)) return [];
    const built = termsSql(terms, options, Math.floor(options.limit));
    if (built === null) return [];
    return this.#read(async (db) =>
      (await db.query<LexicalHit>(built.sql, built.params)).rows.map(numericHit),
    );
  }

  async searchVector(vector: MemoryVector, input: SearchOptions): Promise<VectorHit[]> {
    const options = this.#scoped(input);
    if (!(options.limit > 0) || vector.values.every((v) => v === 0)) return [];
    assertValidVector(vector);
    this.#open();
    try {
      return await searchVectorIn(this.#deps.db, this.#deps.vectors, vector, options);
    } catch (error) {
      throw translatePostgresError(error, this.#deps.where);
    }
  }

  async listMemories(input: ListOptions): Promise<Memory[]> {
    const options = this.#scoped(input);
    return this.#read((db) => listIn(db, options));
  }

  async countMemories(input: MemoryFilter = {}): Promise<number> {
    const filter = this.#scoped(input);
    return this.#read((db) => countIn(db, filter));
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
    return this.#read((db) => storeStats(db, this.schemaVersion));
  }

  async auditTrail(id: MemoryId): Promise<AuditEntry[]> {
    return this.#read((db) => auditTrailOf(db, id));
  }

  async *exportMemories(): AsyncIterable<ExportedMemory> {
    // Keyset pages: no cursor pins a pooled connection across the caller's awaits.
    let after = '';
    for (;;) {
      const page = await this.#read((db) => exportPage(db, after));
      yield* page;
      if (page.length < EXPORT_PAGE) return;
      after = page.at(-1)?.id ?? after;
    }
  }

  async importMemory(record: ExportedMemory): Promise<ImportOutcome> {
    assertImportable(record);
    return this.#write('import', (ctx) => writes.importIn(ctx, record));
  }

  async mendProvenance(id: MemoryId, mend: ProvenanceMend): Promise<MendOutcome> {
    return this.#write('mend', (ctx) => mendProvenanceIn(ctx, id, mend));
  }

  async setQuarantine(id: MemoryId, state: QuarantineState, actor: string): Promise<Memory> {
    assertReview(state, actor);
    return this.#write('quarantine', (ctx) => writes.setQuarantineIn(ctx, id, state, actor));
  }

  async recordMerge(id: MemoryId, detail: Record<string, unknown>): Promise<Memory> {
    assertMergeDetail(detail);
    return this.#write('merge', (ctx) => writes.recordMergeIn(ctx, id, detail));
  }

  async recordCluster(ids: readonly MemoryId[], detail: Record<string, unknown>): Promise<void> {
    assertClusterRecord(ids, detail);
    return this.#write('cluster', (ctx) => writes.recordClusterIn(ctx, ids, detail));
  }

  async markSessionTainted(
    sessionId: string,
    origin: string,
    toolName: string | null,
  ): Promise<void> {
    assertText(sessionId, 'A session id');
    assertText(origin, 'The tainting origin');
    await this.#write('taint', (ctx) => sessions.markTaintedIn(ctx, sessionId, origin, toolName));
  }

  async clearSessionTaint(sessionId: string): Promise<void> {
    assertText(sessionId, 'A session id');
    await this.#write('untaint', (ctx) => sessions.clearTaintIn(ctx, sessionId));
  }

  async getSessionTaint(sessionId: string): Promise<SessionTaint> {
    return this.#read((db) => sessions.readTaint(db, sessionId));
  }

  async recordRememberClaim(claim: Omit<RememberClaim, 'at'>): Promise<void> {
    assertText(claim.sessionId, 'A claim session id');
    assertText(claim.contentHash, 'A claim content hash');
    await this.#write('claim', (ctx) =>
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
    await this.#write('counter', (ctx) => sessions.bumpCounterIn(ctx, name, by));
  }

  async readCounters(sinceDay: string): Promise<CounterRow[]> {
    assertDay(sinceDay);
    return this.#read((db) => sessions.readCountersFrom(db, sinceDay));
  }

  async checkIntegrity(): Promise<string[]> {
    return this.#read((db) => integrityProblems(db));
  }

  async recordInjection(entry: NewInjection): Promise<InjectionRecord> {
    const valid = assertInjection(entry);
    return this.#write('inject', (ctx) => injections.recordInjectionIn(ctx, valid));
  }

  async listInjections(query: InjectionQuery): Promise<InjectionRecord[]> {
    if (!(query.limit > 0)) return [];
    const scoped = ledgerQuery(query);
    return this.#read((db) => injections.ledgerRowsOf(db, scoped, this.#deps.author?.user));
  }

  #shown(sessionId: string) {
    return this.#read((db) => injections.sessionShownOf(db, sessionId, this.#deps.author?.user));
  }

  async injectedIds(sessionId: string): Promise<MemoryId[]> {
    return (await this.#shown(sessionId)).full;
  }

  async indexedIds(sessionId: string): Promise<MemoryId[]> {
    return (await this.#shown(sessionId)).indexOnly;
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
    await this.#write('anchor-checks', (ctx) => recordChecksIn(ctx.db, checks));
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
    await this.#deps.db.close();
  }
}

function numericHit(hit: LexicalHit): LexicalHit {
  return { id: hit.id, score: Number(hit.score) };
}
