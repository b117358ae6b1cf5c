import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inspectSqliteFile, openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import type { AnchorSet } from '../../core/anchors/anchor.js';
import { QUARANTINE_STATES, type QuarantineState } from '../../core/memory.js';
import type {
  CounterRow,
  ExportedMemory,
  InjectionRecord,
  ListOptions,
  MemoryStore,
  SessionTaint,
} from '../store.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { LATEST_SCHEMA_VERSION } from './sqlite-schema.js';
import { listSql } from './sqlite-search.js';

/**
 * Upgrade tests over the frozen databases of every released schema (threat model S1). Each fixture
 * was written by its own release (scripts/make-sqlite-fixture.mjs) and is opened here by today's code.
 * When a migration adds columns, add what it backfills on old rows to BACKFILLED under its version.
 */
// v2 (documented in sqlite-schema.ts): trust band of the stored origin, review 'pending' exactly where
// the origin requires review, gate reason 'legacy'. Written out literally, not through trustBand() or
// requiresReview(), so a drift between the migration's SQL and core/ fails here.
const V2_BAND: Record<string, string> = {
  user: 'high',
  agent: 'medium',
  local_edit: 'medium',
  local_read: 'low',
  local_exec: 'low',
  agent_tainted: 'untrusted',
  network: 'untrusted',
  unknown: 'untrusted',
};
const V2_PENDING = new Set(['agent_tainted', 'network', 'unknown']);
const BACKFILLED: Record<number, (old: ExportedMemory) => Partial<Record<string, unknown>>> = {
  2: (old) => ({
    origin: old.origin,
    trustBand: V2_BAND[old.origin] ?? 'untrusted',
    tainted: false,
    quarantine: V2_PENDING.has(old.origin) || !(old.origin in V2_BAND) ? 'pending' : 'none',
    redactions: 0,
    gateReason: 'legacy',
  }),
  // v3 adds no column: only the trigram index, checked by 'backfills the trigram index …' below.
  3: () => ({}),
  // v4 adds no column: only the injection ledger, checked by 'gains the injection ledger …' below.
  4: () => ({}),
  // v5: no anchor set for rows written before anchors existed (pending, until a process in their
  // project backfills them); injections get `withheld: []`, checked by the ledger test below.
  5: () => ({ anchors: null }),
  // v6 (teams): no author was recorded; team-visible exactly for project rows of the origins that need
  // no review (written out, not through defaultTeamVisible, for the same reason as V2_BAND).
  6: (old) => ({
    authorUser: null,
    authorHost: null,
    teamVisible:
      old.visibility === 'project' &&
      ['user', 'agent', 'local_edit', 'local_read', 'local_exec'].includes(old.origin),
  }),
  // v7: the source address, parsed from the first line of fetch captures only ("Fetched <url>:"); no
  // fixture before v7 holds one, so every row reads null (the backfill itself: sqlite-schema.source.test.ts).
  7: () => ({ sourceUrl: null }),
  // v8: each row's context is its session neighbours' content (see contextRuleOf), built on first open.
  8: () => ({}),
  // v9 adds no column: only partial indexes, checked by 'gains the partial indexes …' below.
  9: () => ({}),
  // v10 adds no memory column: the ledger's author, checked by 'gains the ledger author …' below.
  10: () => ({}),
  // v11 adds no memory column: the ledger's index entries, checked by 'gains the injection ledger …'.
  11: () => ({}),
};

/**
 * Today's context rule written out independently of the store (core/text/capture-context.ts), which
 * every store re-derives on its first open under the rule: one line per neighbour position, the two
 * previous memories of the same session and project (oldest first) and then the two next ones, in write
 * order (ids are sortable and the fixtures wrote in id order); each cut to 600 characters with its own
 * whitespace runs as one space; a missing neighbour an empty line, trailing empty lines dropped. Only
 * memories whose origin is not untrusted and that were not rejected give or get context.
 */
function contextRuleOf(memories: readonly ExportedMemory[], index: number): string {
  const shares = (m: ExportedMemory) =>
    ['high', 'medium', 'low'].includes(m.trustBand) && m.quarantine !== 'rejected';
  const self = memories[index]!;
  if (self.sessionId === null || !shares(self)) return '';
  const session = memories.filter(
    (m) => m.sessionId === self.sessionId && m.projectKey === self.projectKey && shares(m),
  );
  const at = session.indexOf(self);
  const line = (m: ExportedMemory | undefined) =>
    m === undefined ? '' : m.content.slice(0, 600).replace(/\s+/gu, ' ').trim();
  const lines = [at - 2, at - 1, at + 1, at + 2].map((k) => line(k < 0 ? undefined : session[k]));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

interface Manifest {
  schemaVersion: number;
  memories: ExportedMemory[];
  lexical: {
    query: string;
    includeSuperseded: boolean;
    quarantine?: QuarantineState[];
    ids: string[];
  }[];
  vector: { model: string; values: number[]; nearest: string }[];
  /** Since v2. */
  sessions?: SessionTaint[];
  counters?: CounterRow[];
  claims?: number;
  /** Since v4, newest first as `listInjections` returns them (`withheld` since v5, `author` v10, `indexIds` v11). */
  injections?: (Omit<InjectionRecord, 'withheld' | 'author' | 'indexIds'> &
    Partial<Pick<InjectionRecord, 'withheld' | 'author' | 'indexIds'>>)[];
  /** Since v5: the anchor sets the release wrote, as `getAnchorSets` returns them. */
  anchorSets?: AnchorSet[];
}

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/sqlite/', import.meta.url));
const fixtureFiles = readdirSync(FIXTURES)
  .filter((file) => /^schema-v\d+\.db$/.test(file))
  .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite fixtures', () => {
  it('has a fixture for every released schema version', () => {
    const versions = fixtureFiles.map((file) => Number(/\d+/.exec(file)?.[0]));
    expect(versions).toEqual(Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => i + 1));
  });
});

describe.each(fixtureFiles)('fixture %s', (file) => {
  const manifest = JSON.parse(
    readFileSync(join(FIXTURES, file.replace(/\.db$/, '.json')), 'utf8'),
  ) as Manifest;
  const path = join(dir, file.replace(/\.db$/, ''), 'mnemo.db');
  let store: MemoryStore;
  let exported: ExportedMemory[];

  beforeAll(async () => {
    mkdirSync(join(dir, file.replace(/\.db$/, '')), { recursive: true });
    copyFileSync(join(FIXTURES, file), path);
    store = await openSqliteStore({ path });
    exported = [];
    for await (const record of store.exportMemories()) exported.push(record);
  });
  afterAll(async () => {
    await store.close();
  });

  it('opens at the current schema version, backing up first when it had to migrate', () => {
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    const backups = readdirSync(join(path, '..')).filter((f) => f.startsWith('mnemo.db.bak-'));
    expect(backups).toHaveLength(manifest.schemaVersion < LATEST_SCHEMA_VERSION ? 1 : 0);
  });

  it('keeps every row with its id, content, links, counters and vector', () => {
    expect(exported.map((m) => m.id)).toEqual(manifest.memories.map((m) => m.id));
    // The context is derived again under today's rule on open (checked exactly by the test after
    // next); everything else is kept as the fixture wrote it.
    exported.forEach((memory, i) => {
      const { context: _written, ...kept } = manifest.memories[i]!;
      expect(memory).toMatchObject(kept);
    });
  });

  it('keeps lexical search working over the migrated rows', async () => {
    for (const { query, includeSuperseded, quarantine, ids } of manifest.lexical) {
      const hits = await store.searchLexical(query, { limit: 20, includeSuperseded, quarantine });
      expect(hits.map((h) => h.id).sort(), query).toEqual(ids);
    }
  });

  it('keeps vector search working over the migrated rows', async () => {
    for (const { model, values, nearest } of manifest.vector) {
      const hits = await store.searchVector(
        { model, values: Float32Array.from(values) },
        { limit: 1 },
      );
      expect(hits[0]?.id).toBe(nearest);
    }
  });

  it('backfills the columns added after its version', () => {
    for (let version = manifest.schemaVersion + 1; version <= LATEST_SCHEMA_VERSION; version += 1) {
      const expected = BACKFILLED[version];
      expect(expected, `BACKFILLED has no entry for v${version}`).toBeDefined();
      exported.forEach((memory, i) => {
        expect(memory, memory.id).toMatchObject(expected!(manifest.memories[i]!));
      });
    }
  });

  it('derives the context of every row from its session neighbours by today’s rule and indexes it', async () => {
    const contexts = exported.map((_, i) => contextRuleOf(exported, i));
    expect(exported.map((m) => m.context)).toEqual(contexts);
    const everyState = { limit: 50, includeSuperseded: true, quarantine: [...QUARANTINE_STATES] };
    for (const [i, memory] of exported.entries()) {
      // Every memory is found by a word of its own text and, when it has context, by a word only there.
      const own = memory.content.match(/[a-z]{5,}/i)?.[0];
      if (own !== undefined) {
        expect(
          (await store.searchLexical(own, everyState)).map((h) => h.id),
          own,
        ).toContain(memory.id);
      }
      const borrowed = contexts[i]!.split(/[^a-z]+/i).find(
        (word) => word.length >= 6 && !memory.content.toLowerCase().includes(word.toLowerCase()),
      );
      if (borrowed !== undefined) {
        expect(
          (await store.searchLexical(borrowed, everyState)).map((h) => h.id),
          borrowed,
        ).toContain(memory.id);
      }
    }
    expect(inspectSqliteFile(path).problems).toEqual([]);
  });

  it('backfills the trigram index of the identifier leg and keeps it searchable', async () => {
    const everyState = { limit: 50, includeSuperseded: true, quarantine: [...QUARANTINE_STATES] };
    for (const memory of manifest.memories) {
      // A 6-character slice from the middle of the text: a substring no word index could answer.
      const start = Math.max(0, Math.floor(memory.content.length / 2) - 3);
      const term = memory.content.slice(start, start + 6);
      if (term.trim().length < 3) continue;
      const hits = await store.searchTerms([term], everyState);
      expect(
        hits.map((h) => h.id),
        term,
      ).toContain(memory.id);
    }
    const raw = openRawSqlite(path);
    try {
      const docs = raw.prepare('SELECT count(*) FROM memories_terms_docsize').pluck().get();
      expect(docs).toBe(manifest.memories.length);
      raw.exec("INSERT INTO memories_terms (memories_terms) VALUES ('integrity-check')");
    } finally {
      raw.close();
    }
  });

  it('keeps session taint, counters and remember claims', async () => {
    for (const taint of manifest.sessions ?? []) {
      expect(await store.getSessionTaint(taint.sessionId)).toEqual(taint);
    }
    if (manifest.counters !== undefined) {
      expect(await store.readCounters('2000-01-01')).toEqual(manifest.counters);
    }
    const raw = openRawSqlite(path);
    try {
      const claims = raw.prepare('SELECT count(*) FROM remember_claims').pluck().get();
      expect(claims).toBe(manifest.claims ?? 0);
    } finally {
      raw.close();
    }
  });

  it('gains the injection ledger, keeps its rows, and records into it without touching memories', async () => {
    expect(await store.listInjections({ limit: 100 })).toEqual(
      (manifest.injections ?? []).map((row) => ({
        ...row,
        // Rows written before v11 rendered every memory in full: they gain no index entries.
        indexIds: row.indexIds ?? [],
        withheld: row.withheld ?? [],
        author: row.author ?? null,
      })),
    );
    for (const session of new Set((manifest.injections ?? []).map((r) => r.sessionId))) {
      const rows = (manifest.injections ?? []).filter((r) => r.sessionId === session).reverse();
      const full = rows.flatMap((r) => r.memoryIds.filter((id) => !r.indexIds?.includes(id)));
      const pointed = rows.flatMap((r) => r.indexIds ?? []).filter((id) => !full.includes(id));
      expect(await store.injectedIds(session)).toEqual([...new Set(full)]);
      expect(await store.indexedIds(session)).toEqual([...new Set(pointed)]);
    }
    const first = exported[0]!;
    const second = exported[1]!;
    const recorded = await store.recordInjection({
      sessionId: `upgrade-${file}`,
      event: 'session-start',
      source: 'startup',
      projectKey: first.projectKey,
      memoryIds: [first.id, second.id],
      indexIds: [second.id],
      tokens: 10,
    });
    expect(await store.injectedIds(`upgrade-${file}`)).toEqual([first.id]);
    expect(await store.indexedIds(`upgrade-${file}`)).toEqual([second.id]);
    const raw = openRawSqlite(path);
    try {
      // The column itself: '[]' on every released row, the ids on the new one.
      const stored = raw.prepare('SELECT seq, index_ids FROM injections ORDER BY seq').all() as {
        seq: number;
        index_ids: string;
      }[];
      expect(stored.map((r) => r.index_ids)).toEqual(
        [...(manifest.injections ?? [])]
          .sort((a, b) => a.seq - b.seq)
          .map((r) => JSON.stringify(r.indexIds ?? []))
          .concat(JSON.stringify([second.id])),
      );
    } finally {
      raw.close();
    }
    const { vector: _vector, anchors: _anchors, ...row } = first;
    expect(await store.getMemory(first.id)).toEqual(row);
    expect(recorded.seq).toBeGreaterThan(
      Math.max(0, ...(manifest.injections ?? []).map((r) => r.seq)),
    );
  });

  it('gains code anchors: older rows pending, released sets and checks kept, new sets writable', async () => {
    const ids = manifest.memories.map((m) => m.id);
    const sets = await store.getAnchorSets(ids);
    expect([...sets.values()]).toEqual(manifest.anchorSets ?? []);
    for (const memory of exported) {
      const released = manifest.anchorSets?.find((set) => set.memoryId === memory.id);
      expect(memory.anchors, memory.id).toEqual(
        released === undefined
          ? null
          : { how: released.how, resolvedAt: released.resolvedAt, anchors: released.anchors },
      );
    }
    // A pending row takes a backfill; a row with a set keeps it (a backfill never overwrites).
    const pending = ids.find((id) => !sets.has(id))!;
    const anchor = {
      kind: 'file' as const,
      path: 'src/a.ts',
      citedAs: null,
      blobId: 'f'.repeat(40),
      size: 1,
      commit: null,
      source: 'worktree' as const,
      symbols: [],
    };
    const written = await store.saveAnchorSets([
      { memoryId: pending, action: 'backfill', set: { how: 'backfill', anchors: [anchor] } },
      ...[...sets.keys()].map((memoryId) => ({
        memoryId,
        action: 'backfill' as const,
        set: { how: 'backfill' as const, anchors: [] },
      })),
    ]);
    expect(written.map((set) => set.memoryId)).toContain(pending);
    const after = await store.getAnchorSets(ids);
    expect(after.get(pending)).toMatchObject({ how: 'backfill', anchors: [anchor], checks: [] });
    for (const [id, set] of sets) expect(after.get(id)).toEqual(set);
    // A new memory stores its anchors with its row; forgetting it drops them (trigger), raw tables too.
    const { memory: extra } = await store.remember(
      { content: `upgrade check of ${file}: see src/a.ts`, projectKey: '/upgrade', origin: 'user' },
      { anchors: { how: 'write', anchors: [anchor] } },
    );
    expect((await store.getAnchorSets([extra.id])).get(extra.id)?.anchors).toEqual([anchor]);
    expect(await store.forget(extra.id)).toBe(true);
    const raw = openRawSqlite(path);
    try {
      const left = raw
        .prepare('SELECT count(*) FROM anchors WHERE memory_id = ?')
        .pluck()
        .get(extra.id);
      expect(left).toBe(0);
      const columns = raw.prepare("SELECT name FROM pragma_table_info('injections')").pluck().all();
      expect(columns).toContain('withheld');
    } finally {
      raw.close();
    }
  });

  it('gains the partial indexes session start lists through (v9), and lists what a full scan finds', async () => {
    // A copy of its own: the rows written here must not reach the other tests' store.
    const copy = join(dir, `${file.replace(/\.db$/, '')}-v9`, 'mnemo.db');
    mkdirSync(join(copy, '..'), { recursive: true });
    copyFileSync(join(FIXTURES, file), copy);
    const own = await openSqliteStore({ path: copy });
    const raw = openRawSqlite(copy);
    try {
      const indexes = raw
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN (?, ?) ORDER BY name",
        )
        .pluck()
        .all('memories_checkpoints', 'memories_pinned');
      expect(indexes).toEqual(['memories_checkpoints', 'memories_pinned']);
      const projectKey = '/home/dev/projects/alpha';
      // Two checkpoints of a project and a pinned project memory, beside the fixture's pinned global one.
      const written: string[] = [];
      for (const [content, kind, pinned] of [
        ['Checkpoint: halfway through the log rotation', 'checkpoint', false],
        ['Release notes go in CHANGELOG.md, newest first.', 'decision', true],
        ['Checkpoint: log rotation done', 'checkpoint', false],
      ] as const) {
        const at = { content, projectKey, kind, origin: 'user', pinned } as const;
        written.push((await own.remember(at)).memory.id);
      }
      // The listings walk the indexes (not the whole scope newest-first)...
      const planOf = (options: ListOptions) => {
        const { sql, params } = listSql(options);
        const rows = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as {
          detail: string;
        }[];
        return rows.map((row) => row.detail).join(' | ');
      };
      const pinnedList: ListOptions = {
        scope: { projectKey, includeGlobal: true },
        pinned: true,
        limit: 50,
      };
      const checkpointList: ListOptions = {
        scope: { projectKey, includeGlobal: false },
        kinds: ['checkpoint'],
        limit: 5,
      };
      expect(planOf(pinnedList)).toMatch(/USING INDEX memories_pinned/);
      expect(planOf(checkpointList)).toMatch(/USING INDEX memories_checkpoints/);
      // ...and find what reading every row without an index finds.
      const scan = (where: string) =>
        raw
          .prepare(
            `SELECT id FROM memories NOT INDEXED WHERE superseded_by IS NULL
               AND quarantine <> 'rejected' AND ${where} ORDER BY created_at DESC, seq DESC`,
          )
          .pluck()
          .all(projectKey);
      const ids = (memories: readonly { id: string }[]) => memories.map((m) => m.id);
      const pinned = ids(await own.listMemories(pinnedList));
      expect(pinned).toEqual(
        scan(
          "pinned = 1 AND ((project_key = ? AND visibility = 'project') OR visibility = 'global')",
        ),
      );
      expect(pinned).toContain(written[1]);
      expect(pinned.length).toBeGreaterThan(1);
      expect(ids(await own.listMemories(checkpointList))).toEqual([written[2], written[0]]);
      expect(ids(await own.listMemories({ ...checkpointList, limit: 1 }))).toEqual([written[2]]);
    } finally {
      raw.close();
      await own.close();
    }
  });

  it('gains the ledger author (v10): released rows byte for byte with no author, new rows authored, reads scoped', async () => {
    // A copy of its own: the rows written here must not reach the other tests' store.
    const copy = join(dir, `${file.replace(/\.db$/, '')}-v10`, 'mnemo.db');
    mkdirSync(join(copy, '..'), { recursive: true });
    copyFileSync(join(FIXTURES, file), copy);
    const released = openRawSqlite(join(FIXTURES, file));
    const before =
      manifest.schemaVersion < 4
        ? []
        : (released.prepare('SELECT * FROM injections ORDER BY seq').all() as Record<
            string,
            unknown
          >[]);
    released.close();
    const erin = await openSqliteStore({ path: copy, author: { user: 'erin', host: 'e' } });
    const raw = openRawSqlite(copy);
    try {
      const columns = raw
        .prepare('SELECT name FROM pragma_table_info(?)')
        .pluck()
        .all('injections');
      expect(columns).toContain('author_user');
      const index = raw
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?")
        .pluck()
        .get('injections_author');
      expect(index).toMatch(/ON injections \(author_user, seq\)/);
      const after = raw.prepare('SELECT * FROM injections ORDER BY seq').all() as Record<
        string,
        unknown
      >[];
      // Every released column of every row as it was; the author unknown on rows older than v10.
      const released = (row: Record<string, unknown>) =>
        Object.fromEntries(Object.keys(before[0] ?? {}).map((key) => [key, row[key]]));
      expect(after.map(released)).toEqual(before.map(released));
      expect(before.every((row) => !('author_user' in row))).toBe(manifest.schemaVersion < 10);
      const authors = (manifest.injections ?? [])
        .map((row) => [row.seq, row.author ?? null])
        .reverse();
      expect(after.map((row) => [row.seq, row['author_user']])).toEqual(authors);
      if (manifest.schemaVersion < 10) expect(authors.every(([, a]) => a === null)).toBe(true);
      // Read as a teammate: rows of no recorded author only while no other author wrote (dana wrote
      // memories from the v6 fixture on), and never dana's own rows.
      const othersWrote = manifest.memories.some((m) => (m.authorUser ?? null) !== null);
      const seen = (await erin.listInjections({ limit: 100 })).map((r) => r.seq);
      const unauthored = (manifest.injections ?? []).filter((r) => (r.author ?? null) === null);
      expect(seen).toEqual(othersWrote ? [] : unauthored.map((r) => r.seq));
      const written = await erin.recordInjection({
        sessionId: 'erin-session',
        event: 'prompt-recall',
        source: null,
        projectKey: null,
        memoryIds: [manifest.memories[0]!.id],
        tokens: 12,
      });
      expect(
        raw.prepare('SELECT author_user FROM injections WHERE seq = ?').pluck().get(written.seq),
      ).toBe('erin');
      // Erin's own row, beside the unauthored ones only while she is the one author who wrote.
      expect((await erin.listInjections({ limit: 100 })).map((r) => r.seq)).toEqual([
        written.seq,
        ...(othersWrote ? [] : unauthored.map((r) => r.seq)),
      ]);
    } finally {
      raw.close();
      await erin.close();
    }
  });

  it('passes page, FTS and audit-chain integrity checks', () => {
    const inspection = inspectSqliteFile(path);
    expect(inspection).toMatchObject({
      memories: manifest.memories.length,
      lexicalRows: manifest.memories.length,
      vectorRows: manifest.memories.filter((m) => m.vector !== null).length,
      problems: [],
    });
  });
});
