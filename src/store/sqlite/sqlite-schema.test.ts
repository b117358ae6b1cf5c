import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { asSqliteLike, openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { isMemoryError } from '../../core/errors.js';
import { parseOriginClass, TRUST_ORDER, trustBand } from '../../core/origin/origin-class.js';
import { requiresReview } from '../../core/privileges/privileges.js';
import { ManualClock } from '../contract/fixtures.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { migrate, readUserVersion } from './sqlite-migrate.js';
import { LATEST_SCHEMA_VERSION, type Migration, MIGRATIONS, VIEWS } from './sqlite-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => {
  const path = join(dir, `case-${(counter += 1)}`, 'mnemo.db');
  mkdirSync(dirname(path), { recursive: true });
  return path;
};
const V1_FIXTURE = fileURLToPath(
  new URL('../../../test/fixtures/sqlite/schema-v1.db', import.meta.url),
);
const V1_ONLY = MIGRATIONS.slice(0, 1);
const V2 = MIGRATIONS[1]!;

/** A v1 store made by v1's DDL, with one raw row per origin (rows of a build that had no gate). */
function v1StoreWithOrigins(origins: readonly string[]): string {
  const path = freshPath();
  writeFileSync(path, '');
  const db = openRawSqlite(path);
  migrate(asSqliteLike(db), { path, clock: new ManualClock(), migrations: V1_ONLY, views: VIEWS });
  const insert = db.prepare(
    `INSERT INTO memories (id, content, project_key, visibility, kind, origin, created_at, updated_at,
     content_hash) VALUES (?, ?, '/p', 'project', 'note', ?, '2025-01-01T00:00:00.000Z',
     '2025-01-01T00:00:00.000Z', ?)`,
  );
  origins.forEach((origin, i) => {
    insert.run(`01JFX${String(i + 1).padStart(21, '0')}`, `row from ${origin}`, origin, `h${i}`);
  });
  db.close();
  return path;
}

function columnsOf(path: string): string[] {
  const db = openRawSqlite(path);
  try {
    return db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('memories') as string[];
  } finally {
    db.close();
  }
}

describe('schema v2 migration', () => {
  it('backfills trust band and review state from the stored origin, as core/ defines them', () => {
    const origins = [...TRUST_ORDER, 'mcp:who-knows', 'User'];
    const path = v1StoreWithOrigins(origins);
    const db = openRawSqlite(path);
    migrate(asSqliteLike(db), {
      path,
      clock: new ManualClock(),
      migrations: MIGRATIONS,
      views: VIEWS,
    });
    const rows = db
      .prepare(
        'SELECT origin, trust_band, tainted, quarantine, redactions, gate_reason FROM memories ORDER BY seq',
      )
      .all();
    db.close();
    expect(rows).toEqual(
      origins.map((origin) => ({
        origin,
        trust_band: trustBand(parseOriginClass(origin)),
        tainted: 0,
        quarantine: requiresReview(parseOriginClass(origin)) ? 'pending' : 'none',
        redactions: 0,
        gate_reason: 'legacy',
      })),
    );
  });

  it('refuses values outside the v2 vocabularies at the database level', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    await store.remember({ content: 'guarded row', projectKey: '/p', origin: 'user' });
    await store.close();
    const db = openRawSqlite(path);
    try {
      for (const [column, value] of [
        ['trust_band', 'supreme'],
        ['quarantine', 'maybe'],
        ['gate_reason', 'because'],
        ['tainted', 2],
        ['redactions', -1],
      ] as const) {
        expect(() => db.prepare(`UPDATE memories SET ${column} = ?`).run(value), column).toThrow(
          /CHECK constraint failed/,
        );
      }
    } finally {
      db.close();
    }
  });

  it('leaves a v1 file at v1, intact, when the v2 step fails halfway', async () => {
    const path = freshPath();
    copyFileSync(V1_FIXTURE, path);
    const before = openRawSqlite(path);
    const rowsBefore = before.prepare('SELECT * FROM memories ORDER BY seq').all();
    before.close();
    // The real v2 SQL runs to its last statement, then fails: only a rollback can undo it.
    const broken: Migration = { ...V2, sql: `${V2.sql}\nCREATE TABLE half (` };
    const db = openRawSqlite(path);
    let error: unknown;
    try {
      migrate(asSqliteLike(db), {
        path,
        clock: new ManualClock('2025-08-01T00:00:00Z'),
        migrations: [MIGRATIONS[0]!, broken],
        views: VIEWS,
      });
    } catch (e) {
      error = e;
    }
    expect(isMemoryError(error, 'MIGRATION_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/v2 \(write-path\) failed.*unchanged at v1/);
    expect(readUserVersion(asSqliteLike(db))).toBe(1);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    expect(tables).not.toContain('session_taint');
    expect(tables).not.toContain('counters');
    expect(db.prepare('SELECT * FROM memories ORDER BY seq').all()).toEqual(rowsBefore);
    expect(db.prepare('SELECT count(*) FROM active_memories').pluck().get()).toBe(5);
    db.exec("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')");
    db.close();
    expect(columnsOf(path)).not.toContain('trust_band');

    // The untouched v1 file still upgrades with the real migration.
    const store = await openSqliteStore({ path });
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect((await store.searchLexical('deploy', { limit: 5 })).length).toBe(1);
    await store.close();
    expect(columnsOf(path)).toContain('trust_band');
  });
});
