/**
 * PostgreSQL migrations proven old → new (threat model S1): a schema created by v1's own checked-in SQL
 * (test/fixtures/postgres/schema-v1.sql) opened by the current code gains the new columns on the table
 * and the view, keeps its rows and vectors, is backfilled and stays searchable; a fresh install ends
 * with exactly the same columns; a failing step is never recorded; a newer schema is refused; several
 * processes opening one fresh schema at once migrate it exactly once. On the real server and on PGlite.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { type SharedPglite, startPglite } from '../../../test/helpers/pglite-db.js';
import {
  clientQueryable,
  describeWithPostgres,
  freshSchema,
  rawClient,
} from '../../../test/helpers/postgres-test-db.js';
import { storeEnabled } from '../../../test/helpers/store-selection.js';
import { isMemoryError } from '../../core/errors.js';
import { QUARANTINE_STATES } from '../../core/memory.js';
import { contentHash } from '../content-hash.js';
import { ulidSource } from '../default-ids.js';
import { LEXICAL_INDEX_VERSION } from '../lexical-rules.js';
import { textWords } from '../query-terms.js';
import type { MemoryStore } from '../store.js';
import type { Author } from '../write-rules.js';
import { openPostgresStore } from './open-postgres-store.js';
import type { PgLike, PgQueryable } from './pg-like.js';
import { openPostgresStoreOn } from './postgres-open.js';
import { lexicalColumns } from './postgres-rows.js';
import { PG_LATEST_SCHEMA_VERSION, PG_MIGRATIONS } from './postgres-schema.js';

const fixture = (version: number): string =>
  readFileSync(
    fileURLToPath(
      new URL(`../../../test/fixtures/postgres/schema-v${version}.sql`, import.meta.url),
    ),
    'utf8',
  );
const FIXTURE = fixture(1);
const FIXTURE_V3 = fixture(3);
const FIXTURE_V4 = fixture(4);
const FIXTURE_V5 = fixture(5);
const FIXTURE_V6 = fixture(6);
const FIXTURE_V7 = fixture(7);
/** v1's lexical columns, replaced by v5's analysed fields (checked on their own below). */
const REPLACED_BY_V5 = new Set(['lexical', 'lexical_text']);
const DIST_OPENER = fileURLToPath(
  new URL('../../../dist/store/postgres/open-postgres-store.js', import.meta.url),
);
const clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };
const every = { limit: 100, includeSuperseded: true, quarantine: QUARANTINE_STATES };
const fixtureId = (n: number): string => `01JPG${String(n).padStart(21, '0')}`;
const V1_IDS = Array.from({ length: 6 }, (_, i) => fixtureId(i + 1));
/**
 * A coding session a v3 store held (inserted below) and the v4 fixture holds: a failed install, an
 * untrusted page, the fix, the edit.
 */
const [FAILED, PAGE, FIXED, EDITED] = [10, 11, 12, 13].map(fixtureId);

/**
 * Adds that session to a schema loaded from the v3 fixture, as v3 wrote rows (its lexical_text by the
 * released rule: the accent-folded words of content and tags), after the fixture's nine rows.
 */
async function insertV3Session(raw: PgQueryable): Promise<void> {
  const session: [string, string, string, string, string][] = [
    ['npm install failed: ENOSPC no space left on device', 'local_exec', 'Bash', 'low', 'none'],
    [
      'Forum post: reinstall the operating system to free space',
      'network',
      'WebFetch',
      'untrusted',
      'pending',
    ],
    [
      'Freed the disk with docker system prune; install passes',
      'local_exec',
      'Bash',
      'low',
      'none',
    ],
    [
      'Edited ci.yml: prune docker images before npm install',
      'local_edit',
      'Edit',
      'medium',
      'none',
    ],
  ];
  for (const [i, [content, origin, tool, band, quarantine]] of session.entries()) {
    const at = new Date(Date.parse('2025-02-04T09:00:00.000Z') + i * 60_000).toISOString();
    const folded = content
      .normalize('NFKD')
      .replace(/\p{Mn}/gu, '')
      .normalize('NFC');
    await raw.query(
      `INSERT INTO memories (seq, id, content, project_key, visibility, kind, tags, origin, origin_tool,
         session_id, created_at, updated_at, content_hash, trust_band, quarantine, gate_reason,
         lexical_text, author_user, author_host, team_visible)
       OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, '/home/dev/projects/beta', 'project', 'capture', '{}',
         $4, $5, 'session-fixture-8', $6, $6, $7, $8, $9, 'novel', $10, 'dana', 'dana-laptop', $11)`,
      [
        10 + i,
        fixtureId(10 + i),
        content,
        origin,
        tool,
        at,
        contentHash(content),
        band,
        quarantine,
        textWords(folded).join(' '),
        origin !== 'network',
      ],
    );
  }
  await raw.query("SELECT setval(pg_get_serial_sequence('memories', 'seq'), 13)");
}

/**
 * Today's context rule written out independently of the adapter (core/text/capture-context.ts), which
 * every schema re-derives when it opens under the rule: one line per neighbour position, the two previous
 * rows of the same session and project in seq order (oldest first) and then the two next ones, each cut
 * to 600 characters with its own whitespace runs as one space, a missing neighbour an empty line,
 * trailing empty lines dropped; only rows of a trusted, medium or low band that were not rejected give
 * or get it.
 */
function contextRule(rows: readonly Record<string, unknown>[], index: number): string {
  const shares = (row: Record<string, unknown>) =>
    ['high', 'medium', 'low'].includes(String(row['trust_band'])) &&
    row['quarantine'] !== 'rejected';
  const self = rows[index]!;
  if (self['session_id'] === null || !shares(self)) return '';
  const session = rows.filter(
    (row) =>
      row['session_id'] === self['session_id'] &&
      row['project_key'] === self['project_key'] &&
      shares(row),
  );
  const at = session.indexOf(self);
  const line = (row: Record<string, unknown> | undefined) =>
    row === undefined ? '' : String(row['content']).slice(0, 600).replace(/\s+/gu, ' ').trim();
  const lines = [at - 2, at - 1, at + 1, at + 2].map((k) => line(k < 0 ? undefined : session[k]));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

interface Target {
  /** Runs SQL with search_path = schema, outside the store. */
  raw(schema: string): Promise<PgQueryable>;
  open(schema: string, migrations?: typeof PG_MIGRATIONS, author?: Author): Promise<MemoryStore>;
}

async function columns(db: PgQueryable, schema: string, table: string): Promise<string[]> {
  const { rows } = await db.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
     ORDER BY column_name`,
    [schema, table],
  );
  return rows.map((row) => `${row.column_name}:${row.data_type}`);
}

function describeUpgrade(name: string, target: () => Target): void {
  describe(name, () => {
    it('opens a v1 schema made by its own SQL: new columns on table and view, rows intact, backfilled, searchable', async () => {
      const schema = freshSchema('v1');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE);
      const before = (
        await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
      ).rows;
      const vectorsBefore = (await raw.query('SELECT seq, embedding FROM vec_1 ORDER BY seq')).rows;
      expect(await columns(raw, schema, 'memories')).not.toContain('team_visible:boolean');
      const store = await target().open(schema);
      try {
        expect(store.schemaVersion).toBe(PG_LATEST_SCHEMA_VERSION);
        const after = (
          await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
        ).rows;
        expect(after.map((row) => row['id'])).toEqual(V1_IDS);
        after.forEach((row, i) => {
          const old = before[i]!;
          for (const [column, value] of Object.entries(old)) {
            if (!REPLACED_BY_V5.has(column)) expect(row[column], column).toEqual(value);
          }
          // v5: the analysed terms of content and tags; no session, so no context.
          expect(row).toMatchObject({
            context: '',
            lexical_body: lexicalColumns(String(old['content']), old['tags'] as string[], '').body,
            lexical_context: '',
          });
          expect(row).toMatchObject({
            author_user: null,
            author_host: null,
            team_visible:
              old['visibility'] === 'project' &&
              ['user', 'agent', 'local_edit', 'local_read', 'local_exec'].includes(
                String(old['origin']),
              ),
          });
        });
        expect((await raw.query('SELECT seq, embedding FROM vec_1 ORDER BY seq')).rows).toEqual(
          vectorsBefore,
        );
        // The view was rebuilt after the table changed: it has the new columns.
        const view = await columns(raw, schema, 'active_memories');
        expect(view).toEqual(expect.arrayContaining(['author_user:text', 'team_visible:boolean']));
        expect((await raw.query('SELECT count(*)::int AS n FROM active_memories')).rows[0]).toEqual(
          { n: 5 },
        );
        const recorded = await raw.query<{ version: number; checksum: string }>(
          'SELECT version, checksum FROM schema_migrations ORDER BY version',
        );
        expect(recorded.rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
        // Everything still reads through the port.
        const memories = await store.listMemories(every);
        expect(memories.map((m) => m.id).sort()).toEqual(V1_IDS);
        expect((await store.searchLexical('deploy', { limit: 5 })).map((h) => h.id)).toEqual([
          V1_IDS[2],
        ]);
        expect((await store.searchLexical('cafe resume', { limit: 5 })).map((h) => h.id)).toEqual([
          V1_IDS[4],
        ]);
        expect((await store.searchTerms(['npm run build'], { limit: 5 })).map((h) => h.id)).toEqual(
          [V1_IDS[0]],
        );
        const near = await store.searchVector(
          { model: 'fixture-model', values: Float32Array.from([1, 0.1, 0, 0]) },
          { limit: 1 },
        );
        expect(near.map((h) => h.id)).toEqual([V1_IDS[0]]);
        expect(await store.getSessionTaint('session-fixture-2')).toMatchObject({
          tainted: true,
          origin: 'network',
        });
        expect(await store.injectedIds('session-fixture-4')).toEqual([V1_IDS[0], V1_IDS[2]]);
        expect(await store.checkIntegrity()).toEqual([]);
        // And it writes: new rows get the new columns.
        const added = await store.remember({
          content: 'written after the upgrade',
          projectKey: '/p',
          origin: 'user',
        });
        expect(added.memory.teamVisible).toBe(true);
      } finally {
        await store.close();
      }
    });

    it('opens a v3 schema made by its own SQL: source address backfilled from fetch captures only, browse indexes', async () => {
      const schema = freshSchema('v3');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE_V3);
      const before = (
        await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
      ).rows;
      expect(before).toHaveLength(9);
      expect(await columns(raw, schema, 'memories')).not.toContain('source_url:text');
      const store = await target().open(schema);
      try {
        const after = (
          await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
        ).rows;
        after.forEach((row, i) => {
          for (const [column, value] of Object.entries(before[i]!)) {
            if (!REPLACED_BY_V5.has(column)) expect(row[column], column).toEqual(value);
          }
        });
        // Only the network capture whose first line names its page gains an address, in the write
        // path's form (host lower-case, default port, query and fragment dropped); the user's note that
        // begins the same way and the v1-era capture without that line stay NULL.
        expect(after.map((row) => [row['id'], row['source_url'], row['source_host']])).toEqual(
          after.map((row) =>
            row['id'] === `01JPG${'7'.padStart(21, '0')}`
              ? [row['id'], 'https://docs.example.com/quotas', 'docs.example.com']
              : [row['id'], null, null],
          ),
        );
        const view = await columns(raw, schema, 'active_memories');
        expect(view).toEqual(expect.arrayContaining(['source_url:text', 'source_host:text']));
        const { rows: indexes } = await raw.query<{ indexname: string }>(
          "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname IN ('memories_browse', 'memories_warm') ORDER BY 1",
          [schema],
        );
        expect(indexes.map((r) => r.indexname)).toEqual(['memories_browse', 'memories_warm']);
        // Through the port: the page's group and its filter, and the author's row stays private.
        const page = await store.getMemory(`01JPG${'7'.padStart(21, '0')}`);
        expect(page?.sourceUrl).toBe('https://docs.example.com/quotas');
        expect(
          await store.countMemoryGroups(
            { quarantine: ['pending'] },
            { by: 'sourceHost', limit: 5 },
          ),
        ).toEqual([
          { key: 'docs.example.com', count: 1 },
          { key: null, count: 1 },
        ]);
        expect(
          (await store.listMemories({ limit: 10, sourceDomains: ['example.com'] })).map(
            (m) => m.id,
          ),
        ).toEqual([page?.id]);
        const erin = await store.listMemories({ limit: 20, reader: 'erin' });
        expect(erin.map((m) => m.id)).not.toContain(`01JPG${'9'.padStart(21, '0')}`);
        expect(await store.checkIntegrity()).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it.each([
      [
        'v3',
        async (raw: PgQueryable) => {
          await raw.exec(FIXTURE_V3);
          await insertV3Session(raw);
        },
      ],
      ['v4', (raw: PgQueryable) => raw.exec(FIXTURE_V4)],
    ])(
      'opens a %s schema made by its own SQL: contexts derived, terms in two weighted fields, statistics built (v5)',
      async (version, load) => {
        const schema = freshSchema(version);
        const raw = await target().raw(schema);
        await load(raw);
        const all = 'SELECT * FROM memories ORDER BY seq';
        const before = (await raw.query<Record<string, unknown>>(all)).rows;
        expect(await columns(raw, schema, 'memories')).not.toContain('context:text');
        const store = await target().open(schema);
        try {
          const after = (await raw.query<Record<string, unknown>>(all)).rows;
          expect(after.map((row) => row['id'])).toEqual(before.map((row) => row['id']));
          expect(after.map((row) => row['id'])).toEqual([
            ...V1_IDS,
            ...[7, 8, 9, 10, 11, 12, 13].map(fixtureId),
          ]);
          after.forEach((row, i) => {
            for (const [column, value] of Object.entries(before[i]!)) {
              if (!REPLACED_BY_V5.has(column)) expect(row[column], column).toEqual(value);
            }
          });
          if (version === 'v4') {
            // v4's source addresses (the page's, stored at capture, and the backfilled v3-era one) kept.
            expect(
              after
                .filter((row) => row['source_url'] !== null)
                .map((row) => [row['id'], row['source_url']]),
            ).toEqual([
              [fixtureId(7), 'https://docs.example.com/quotas'],
              [PAGE, 'https://forum.example.net/t/disk-full'],
            ]);
          }
          // Every row's context by the rule, and its two lexical columns from content, tags and context.
          const contexts = before.map((_, i) => contextRule(before, i));
          expect(after.map((row) => row['context'])).toEqual(contexts);
          expect(after.filter((row) => row['context'] !== '').map((row) => row['id'])).toEqual([
            FAILED,
            FIXED,
            EDITED,
          ]);
          for (const row of after) {
            const expected = lexicalColumns(
              String(row['content']),
              row['tags'] as string[],
              String(row['context']),
            );
            expect(row, String(row['id'])).toMatchObject({
              lexical_body: expected.body,
              lexical_context: expected.context,
            });
          }
          // The body at weight A and the context at weight B reach the tsvector.
          const { rows: vectors } = await raw.query<{ v: string }>(
            'SELECT lexical::text AS v FROM memories WHERE id = $1',
            [EDITED],
          );
          expect(vectors[0]?.v).toMatch(/'edit':\d+A/);
          expect(vectors[0]?.v).toMatch(/'enospc':\d+B/);
          // Term statistics: totals and per-term documents and body occurrences, counted here.
          const fields = after.map((row) =>
            lexicalColumns(String(row['content']), row['tags'] as string[], String(row['context'])),
          );
          const words = (text: string) => (text === '' ? [] : text.split(' '));
          const { rows: state } = await raw.query<Record<string, unknown>>(
            'SELECT analyzer, docs::int, body_terms::int, context_terms::int FROM lexical_state',
          );
          expect(state).toEqual([
            {
              analyzer: expect.stringContaining('porter2') as unknown,
              docs: after.length,
              body_terms: fields.reduce((n, f) => n + words(f.body).length, 0),
              context_terms: fields.reduce((n, f) => n + words(f.context).length, 0),
            },
          ]);
          const expectedTerms = new Map<string, { docs: number; body: number }>();
          for (const f of fields) {
            for (const term of new Set([...words(f.body), ...words(f.context)])) {
              const entry = expectedTerms.get(term) ?? { docs: 0, body: 0 };
              entry.docs += 1;
              expectedTerms.set(term, entry);
            }
            for (const term of words(f.body)) expectedTerms.get(term)!.body += 1;
          }
          const { rows: terms } = await raw.query<{ term: string; docs: number; body: number }>(
            'SELECT term, docs::int, body::int FROM lexical_terms ORDER BY term',
          );
          expect(new Map(terms.map((t) => [t.term, { docs: t.docs, body: t.body }]))).toEqual(
            expectedTerms,
          );
          // Found through its own text first and, at the lower weight, through its neighbours'.
          const hits = await store.searchLexical('ENOSPC', every);
          expect(hits[0]?.id).toBe(FAILED);
          expect(hits.map((h) => h.id).sort()).toEqual([FAILED, FIXED, EDITED].sort());
          expect((await store.searchLexical('reinstall', every)).map((h) => h.id)).toEqual([PAGE]);
          expect(await store.checkIntegrity()).toEqual([]);
          // New writes keep the statistics: a capture in the session takes the edit as context.
          await store.remember({
            content: 'CI green again after the prune step',
            projectKey: String(after.find((row) => row['id'] === EDITED)!['project_key']),
            origin: 'local_exec',
            originTool: 'Bash',
            kind: 'capture',
            sessionId: 'session-fixture-8',
          });
          expect((await store.searchLexical('ci.yml', every)).map((h) => h.id)).toContain(EDITED);
          expect(await store.checkIntegrity()).toEqual([]);
        } finally {
          await store.close();
        }
      },
    );

    it('opens a v5 schema made by its own SQL: rows kept, contexts re-derived by today’s rule with their statistics, searchable', async () => {
      const schema = freshSchema('v5');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE_V5);
      const all = 'SELECT * FROM memories ORDER BY seq';
      const state =
        'SELECT analyzer, docs::int, body_terms::int, context_terms::int FROM lexical_state';
      const before = (await raw.query<Record<string, unknown>>(all)).rows;
      const stateBefore = (await raw.query<{ analyzer: string }>(state)).rows;
      expect(before.map((row) => row['context'] !== '')).toContain(true);
      const contexts = before.map((_, i) => contextRule(before, i));
      // The fixture holds contexts of an earlier rule, so opening it must derive them again.
      expect(before.map((row) => row['context'])).not.toEqual(contexts);
      expect(stateBefore[0]?.analyzer).not.toBe(LEXICAL_INDEX_VERSION);
      const store = await target().open(schema);
      try {
        const after = (await raw.query<Record<string, unknown>>(all)).rows;
        // Every column but the context and its lexical forms as v5 wrote it.
        const released = ({
          context: _c,
          lexical: _l,
          lexical_body: _b,
          lexical_context: _x,
          ...row
        }: Record<string, unknown>) => row;
        expect(after.map(released)).toEqual(before.map(released));
        expect(after.map((row) => row['context'])).toEqual(contexts);
        const fields = after.map((row) =>
          lexicalColumns(String(row['content']), row['tags'] as string[], String(row['context'])),
        );
        after.forEach((row, i) =>
          expect(row, String(row['id'])).toMatchObject({
            lexical_body: fields[i]!.body,
            lexical_context: fields[i]!.context,
          }),
        );
        const words = (text: string) => (text === '' ? [] : text.split(' '));
        expect((await raw.query(state)).rows).toEqual([
          {
            analyzer: LEXICAL_INDEX_VERSION,
            docs: before.length,
            body_terms: fields.reduce((n, f) => n + words(f.body).length, 0),
            context_terms: fields.reduce((n, f) => n + words(f.context).length, 0),
          },
        ]);
        expect(await store.checkIntegrity()).toEqual([]);
        const hits = await store.searchLexical('ENOSPC', every);
        expect(hits[0]?.id).toBe(FAILED);
        expect(hits.map((h) => h.id).sort()).toEqual([FAILED, FIXED, EDITED].sort());
        // The statistics go on from the rebuilt ones.
        await store.remember({
          content: 'ENOSPC again on the runner; pruned the cache',
          projectKey: '/home/dev/projects/beta',
          origin: 'local_exec',
          originTool: 'Bash',
          kind: 'capture',
          sessionId: 'session-fixture-8',
        });
        const { rows: grown } = await raw.query<{ docs: number }>(state);
        expect(grown[0]?.docs).toBe(before.length + 1);
        expect(await store.checkIntegrity()).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it('gains the partial indexes session start lists through (v6), and lists what a full scan finds', async () => {
      const schema = freshSchema('v6');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE_V5);
      const store = await target().open(schema);
      try {
        const { rows: indexes } = await raw.query<{ indexname: string; indexdef: string }>(
          `SELECT indexname, indexdef FROM pg_indexes
            WHERE schemaname = current_schema() AND indexname IN ('memories_pinned', 'memories_checkpoints')
            ORDER BY indexname`,
        );
        expect(indexes.map((row) => row.indexname)).toEqual([
          'memories_checkpoints',
          'memories_pinned',
        ]);
        expect(indexes[0]?.indexdef).toMatch(
          /WHERE \(\(kind = 'checkpoint'::text\) AND \(superseded_by IS NULL\)\)/,
        );
        expect(indexes[1]?.indexdef).toMatch(/WHERE \(pinned AND \(superseded_by IS NULL\)\)/);
        // A pinned memory and two checkpoints of one project, listed as session start lists them.
        const projectKey = '/home/dev/projects/alpha';
        const written = [];
        for (const [content, kind, pinned] of [
          ['Checkpoint: halfway through the log rotation', 'checkpoint', false],
          ['Release notes go in CHANGELOG.md, newest first.', 'decision', true],
          ['Checkpoint: log rotation done', 'checkpoint', false],
        ] as const) {
          written.push(
            (await store.remember({ content, projectKey, kind, origin: 'user', pinned })).memory.id,
          );
        }
        const reference = async (where: string) =>
          (
            await raw.query<{ id: string }>(
              `SELECT id FROM memories WHERE superseded_by IS NULL AND quarantine <> 'rejected'
                 AND ${where} ORDER BY created_at DESC, seq DESC`,
              [projectKey],
            )
          ).rows.map((row) => row.id);
        const pinned = await store.listMemories({
          scope: { projectKey, includeGlobal: true },
          pinned: true,
          limit: 50,
        });
        expect(pinned.map((m) => m.id)).toEqual(
          await reference(
            "pinned AND ((project_key = $1 AND visibility = 'project') OR visibility = 'global')",
          ),
        );
        expect(pinned.map((m) => m.id)).toContain(written[1]);
        const checkpoints = await store.listMemories({
          scope: { projectKey, includeGlobal: false },
          kinds: ['checkpoint'],
          limit: 1,
        });
        expect(checkpoints.map((m) => m.id)).toEqual([written[2]]);
      } finally {
        await store.close();
      }
    });

    it.each([
      ['v1', FIXTURE],
      ['v3', FIXTURE_V3],
      ['v4', FIXTURE_V4],
      ['v5', FIXTURE_V5],
    ])(
      'ends a fresh install and an upgrade from %s with the same tables and columns',
      async (_, sql) => {
        const fresh = freshSchema('fresh');
        const upgraded = freshSchema('up');
        const raw = await target().raw(upgraded);
        await raw.exec(sql);
        for (const schema of [fresh, upgraded]) await (await target().open(schema)).close();
        for (const table of [
          'memories',
          'active_memories',
          'audit_log',
          'vector_spaces',
          'injections',
          'session_taint',
          'counters',
          'remember_claims',
          'schema_migrations',
          'lexical_state',
          'lexical_terms',
          'model_state',
        ]) {
          expect(await columns(raw, fresh, table), table).toEqual(
            await columns(raw, upgraded, table),
          );
        }
      },
    );

    it('opens a v6 schema made by its own SQL: the ledger gains its author, released rows kept byte for byte, reads scoped', async () => {
      const schema = freshSchema('v7');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE_V6);
      const ledger = 'SELECT * FROM injections ORDER BY seq';
      const before = (await raw.query<Record<string, unknown>>(ledger)).rows;
      expect(before).toHaveLength(3);
      expect(await columns(raw, schema, 'injections')).not.toContain('author_user:text');
      const anonymous = await target().open(schema);
      const dana = await target().open(schema, undefined, { user: 'dana', host: 'dana-laptop' });
      const erin = await target().open(schema, undefined, { user: 'erin', host: 'erin-desktop' });
      try {
        expect(await columns(raw, schema, 'injections')).toContain('author_user:text');
        const { rows: index } = await raw.query<{ indexdef: string }>(
          "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'injections_author'",
        );
        expect(index[0]?.indexdef).toMatch(/\(author_user, seq\)/);
        const after = (await raw.query<Record<string, unknown>>(ledger)).rows;
        // Every released column of every row as v6 wrote it; nothing recorded who injected them.
        expect(after.map(({ author_user: _a, index_ids: _i, ...row }) => row)).toEqual(before);
        expect(after.map((row) => row['author_user'])).toEqual([null, null, null]);
        const sessions = async (store: MemoryStore) =>
          (await store.listInjections({ limit: 10 })).map((r) => [r.sessionId, r.author]);
        expect(await sessions(anonymous)).toEqual([
          ['session-fixture-10', null],
          ['session-fixture-9', null],
          ['session-fixture-4', null],
        ]);
        // dana is the one author who wrote to this store: its unauthored history is hers to see, whole,
        // her private page among the withheld. erin is another author: she sees none of it.
        const [nine] = await dana.listInjections({ sessionId: 'session-fixture-9', limit: 5 });
        expect(nine?.withheld).toEqual([{ id: PAGE, reasons: ['tainted'] }]);
        expect(nine?.memoryIds).toEqual([FAILED, FIXED, EDITED]);
        expect(await sessions(erin)).toEqual([]);
        const written = await dana.recordInjection({
          sessionId: 'session-after-upgrade',
          event: 'session-start',
          source: 'startup',
          projectKey: '/home/dev/projects/beta',
          memoryIds: [FAILED!],
          tokens: 20,
        });
        const { rows: stamped } = await raw.query<{ author_user: string | null }>(
          'SELECT author_user FROM injections WHERE seq = $1',
          [written.seq],
        );
        expect(stamped).toEqual([{ author_user: 'dana' }]);
        await erin.remember({ content: 'Erin writes too.', projectKey: '/p', origin: 'user' });
        // Once a second author has written, no author is shown the unauthored rows.
        expect(await sessions(dana)).toEqual([['session-after-upgrade', 'dana']]);
        expect(await sessions(erin)).toEqual([]);
        expect(await anonymous.listInjections({ limit: 10 })).toHaveLength(4);
      } finally {
        await erin.close();
        await dana.close();
        await anonymous.close();
      }
    });

    it('opens a v7 schema made by its own SQL: the ledger gains index entries, none on released rows', async () => {
      const schema = freshSchema('v8');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE_V7);
      const ledger = 'SELECT * FROM injections ORDER BY seq';
      const before = (await raw.query<Record<string, unknown>>(ledger)).rows;
      expect(before).toHaveLength(4);
      expect(await columns(raw, schema, 'injections')).not.toContain('index_ids:ARRAY');
      const dana = await target().open(schema, undefined, { user: 'dana', host: 'dana-laptop' });
      try {
        expect(await columns(raw, schema, 'injections')).toContain('index_ids:ARRAY');
        const after = (await raw.query<Record<string, unknown>>(ledger)).rows;
        // Every released column of every row as v7 wrote it; each rendered its memories in full.
        expect(after.map(({ index_ids: _i, ...row }) => row)).toEqual(before);
        expect(after.map((row) => row['index_ids'])).toEqual([[], [], [], []]);
        expect(await dana.injectedIds('session-fixture-11')).toEqual([V1_IDS[0], V1_IDS[2]]);
        expect(await dana.indexedIds('session-fixture-11')).toEqual([]);
        await dana.recordInjection({
          sessionId: 'session-fixture-11',
          event: 'prompt-recall',
          source: null,
          projectKey: '/home/dev/projects/alpha',
          memoryIds: [V1_IDS[4]!],
          indexIds: [V1_IDS[4]!],
          tokens: 18,
        });
        const { rows: stored } = await raw.query<{ index_ids: string[] }>(
          'SELECT index_ids FROM injections ORDER BY seq DESC LIMIT 1',
        );
        expect(stored).toEqual([{ index_ids: [V1_IDS[4]] }]);
        expect(await dana.injectedIds('session-fixture-11')).toEqual([V1_IDS[0], V1_IDS[2]]);
        expect(await dana.indexedIds('session-fixture-11')).toEqual([V1_IDS[4]]);
        const [row] = await dana.listInjections({ sessionId: 'session-fixture-11', limit: 1 });
        expect(row?.indexIds).toEqual([V1_IDS[4]]);
      } finally {
        await dana.close();
      }
    });

    it('never records a migration that failed, and leaves none of its DDL behind', async () => {
      const schema = freshSchema('fail');
      const broken = [
        ...PG_MIGRATIONS,
        {
          version: PG_LATEST_SCHEMA_VERSION + 1,
          name: 'broken',
          sql: 'CREATE TABLE half_done (x int); SELECT 1 / 0;',
        },
      ];
      const error = await target()
        .open(schema, broken)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isMemoryError(error, 'MIGRATION_FAILED'), String(error)).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(`unchanged at v${PG_LATEST_SCHEMA_VERSION}`),
      );
      const raw = await target().raw(schema);
      const { rows } = await raw.query<{ v: number }>(
        'SELECT max(version) AS v FROM schema_migrations',
      );
      expect(rows[0]?.v).toBe(PG_LATEST_SCHEMA_VERSION);
      expect(await columns(raw, schema, 'half_done')).toEqual([]);
      // The store still opens with the released migrations.
      await (await target().open(schema)).close();
    });

    it('refuses a schema newer than this build', async () => {
      const schema = freshSchema('new');
      await (await target().open(schema)).close();
      const raw = await target().raw(schema);
      await raw.query("INSERT INTO schema_migrations VALUES (99, 'future', 'x', now())");
      const error = await target()
        .open(schema)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isMemoryError(error, 'SCHEMA_TOO_NEW'), String(error)).toBe(true);
      expect((error as Error).message).toMatch(/schema v99 .* is newer than this mnemo/);
    });
  });
}

if (storeEnabled('postgres')) {
  describeWithPostgres('postgres server migrations', (server) => {
    let client: Awaited<ReturnType<typeof rawClient>> | undefined;
    afterAll(async () => client?.end());
    describeUpgrade('upgrade and fresh install', () => ({
      raw: async (schema) => {
        client ??= await rawClient(await server.url());
        const db = clientQueryable(client);
        await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}`);
        return db;
      },
      open: async (schema, migrations, author) =>
        openPostgresStore({
          url: await server.url({ schema }),
          clock,
          ...(migrations === undefined ? {} : { migrations }),
          ...(author === undefined ? {} : { author }),
        }),
    }));

    it('migrates exactly once when several processes open one fresh schema at once', async () => {
      expect(existsSync(DIST_OPENER), 'run `npm run build` first').toBe(true);
      const schema = freshSchema('race');
      const url = await server.url({ schema });
      const script = `const { openPostgresStore } = await import(${JSON.stringify(pathToFileURL(DIST_OPENER).href)});
        const store = await openPostgresStore({ url: process.argv[1] });
        await store.remember({ content: 'opened by ' + process.pid, projectKey: '/race' });
        await store.close();`;
      const codes = await Promise.all(
        Array.from(
          { length: 5 },
          () =>
            new Promise<number | null>((resolve, reject) => {
              const child = spawn(process.execPath, ['--input-type=module', '-e', script, url], {
                stdio: ['ignore', 'ignore', 'inherit'],
              });
              child.on('error', reject);
              child.on('close', resolve);
            }),
        ),
      );
      expect(codes).toEqual([0, 0, 0, 0, 0]);
      const { rows } = await server.admin(
        `SELECT version, count(*)::int AS n FROM ${schema}.schema_migrations GROUP BY version ORDER BY version`,
      );
      expect(rows).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
      const { rows: memories } = await server.admin(
        `SELECT count(*)::int AS n FROM ${schema}.memories`,
      );
      expect(memories).toEqual([{ n: 5 }]);
    });
  });
}

if (storeEnabled('pglite')) {
  let shared: Promise<SharedPglite> | undefined;
  const lite = (): Promise<SharedPglite> => (shared ??= startPglite());
  afterAll(async () => (shared === undefined ? undefined : (await shared).close()));
  const handles = new Map<string, PgLike>();
  const handle = async (schema: string): Promise<PgLike> => {
    const existing = handles.get(schema);
    if (existing !== undefined) return existing;
    const made = (await lite()).handle(schema);
    handles.set(schema, made);
    return made;
  };
  describeUpgrade('pglite migrations', () => ({
    raw: async (schema) => {
      const db = await handle(schema);
      await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      return db;
    },
    open: async (schema, migrations, author) =>
      openPostgresStoreOn({
        db: (await lite()).handle(schema),
        schema,
        where: 'pglite',
        clock,
        ids: ulidSource(clock),
        ...(migrations === undefined ? {} : { migrations }),
        ...(author === undefined ? {} : { author }),
      }),
  }));
}
