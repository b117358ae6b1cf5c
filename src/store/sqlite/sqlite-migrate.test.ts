import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { asSqliteLike, openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { isMemoryError } from '../../core/errors.js';
import { ManualClock } from '../contract/fixtures.js';
import { openSqliteStore } from './open-sqlite-store.js';
import type { SqliteLike } from './sqlite-like.js';
import { migrate, migrationChecksum, readUserVersion } from './sqlite-migrate.js';
import { LATEST_SCHEMA_VERSION, type Migration, MIGRATIONS, VIEWS } from './sqlite-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(dir, `case-${(counter += 1)}`, 'mnemo.db');
const backupsOf = (path: string) =>
  readdirSync(dirname(path)).filter((f) => f.startsWith(`${basename(path)}.bak-`));

async function storeWithRows(path: string, rows = 5): Promise<string[]> {
  const store = await openSqliteStore({ path });
  const ids: string[] = [];
  for (let i = 0; i < rows; i += 1) {
    const { memory } = await store.remember(
      { content: `migration survivor ${i}`, projectKey: '/p', tags: ['keep'] },
      { vector: { model: 'm', values: Float32Array.from([1, i]) } },
    );
    ids.push(memory.id);
  }
  await store.close();
  return ids;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

// A step after the latest released one, to exercise the migrator itself.
const NEXT_STEP: Migration = {
  version: LATEST_SCHEMA_VERSION + 1,
  name: 'probe-column',
  sql: "ALTER TABLE memories ADD COLUMN probe TEXT NOT NULL DEFAULT 'legacy';",
};

describe('sqlite migrations', () => {
  it('creates a fresh store at the latest version with every step recorded', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path, clock: new ManualClock('2025-06-01T00:00:00Z') });
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    await store.close();
    const db = openRawSqlite(path);
    expect(readUserVersion(asSqliteLike(db))).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare('SELECT * FROM schema_migrations ORDER BY version').all()).toEqual(
      MIGRATIONS.map((m) => ({
        version: m.version,
        name: m.name,
        checksum: migrationChecksum(m),
        applied_at: '2025-06-01T00:00:00.000Z',
      })),
    );
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'view'").pluck().all()).toEqual(
      VIEWS.map((v) => v.name),
    );
    db.close();
    expect(backupsOf(path)).toEqual([]);
  });

  it('reopens an up-to-date store without migrating or backing up', async () => {
    const path = freshPath();
    await storeWithRows(path);
    const store = await openSqliteStore({ path });
    expect(await store.countMemories()).toBe(5);
    await store.close();
    expect(backupsOf(path)).toEqual([]);
  });

  it('refuses a store whose schema is newer than this build and leaves it untouched', async () => {
    const path = freshPath();
    await storeWithRows(path);
    const raw = openRawSqlite(path);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    raw.close();
    const before = readFileSync(path);
    const error = await rejection(openSqliteStore({ path }));
    expect(isMemoryError(error, 'SCHEMA_TOO_NEW')).toBe(true);
    expect((error as Error).message).toBe(
      `Database schema v${LATEST_SCHEMA_VERSION + 1} is newer than this mnemo (v${LATEST_SCHEMA_VERSION}). Upgrade mnemo or point MNEMO_HOME at another store.`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a store whose applied migration differs from this build', async () => {
    const path = freshPath();
    await storeWithRows(path);
    const raw = openRawSqlite(path);
    raw.prepare("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1").run();
    raw.close();
    const error = await rejection(openSqliteStore({ path }));
    expect(isMemoryError(error, 'MIGRATION_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/v1 \(initial\).*does not match.*restore a backup/);
  });

  it('writes out the sha256 of every released step, so an open compares without hashing', () => {
    for (const migration of MIGRATIONS) {
      expect(
        migration.checksum,
        `sqlite-schema.ts: v${migration.version} needs checksum '${migrationChecksum(migration)}'`,
      ).toBe(migrationChecksum(migration));
    }
  });

  it('refuses a store whose recorded step differs from a written-out checksum, and hashes a step without one', () => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    const db = asSqliteLike(openRawSqlite(path));
    const clock = new ManualClock();
    const steps: Migration[] = [{ version: 1, name: 'one', sql: 'CREATE TABLE one (x INTEGER);' }];
    migrate(db, { path, clock, migrations: steps, views: [] });
    const hashed = migrationChecksum(steps[0]!);
    // Recorded as hashed; reopened with the same checksum written out, and without it: both accepted.
    expect(
      migrate(db, { path, clock, migrations: [{ ...steps[0]!, checksum: hashed }], views: [] })
        .applied,
    ).toEqual([]);
    expect(migrate(db, { path, clock, migrations: steps, views: [] }).applied).toEqual([]);
    let refused: unknown;
    try {
      migrate(db, {
        path,
        clock,
        migrations: [{ ...steps[0]!, checksum: 'f'.repeat(64) }],
        views: [],
      });
    } catch (error) {
      refused = error;
    }
    expect(isMemoryError(refused, 'MIGRATION_FAILED')).toBe(true);
    db.close();
  });

  it('refuses to adopt a SQLite file that is not a mnemo store', async () => {
    const foreign = freshPath();
    mkdirSync(dirname(foreign), { recursive: true });
    writeFileSync(foreign, '');
    const db = openRawSqlite(foreign);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    db.close();
    const error = await rejection(openSqliteStore({ path: foreign }));
    expect(isMemoryError(error, 'STORE_UNAVAILABLE')).toBe(true);
    const after = openRawSqlite(foreign);
    expect(after.prepare('SELECT name FROM sqlite_master').pluck().all()).toEqual(['invoices']);
    after.close();
  });

  it('opens a fresh store that another process creates between its first reads', () => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    const other = openRawSqlite(path);
    // WAL, as every store runs: one connection's snapshot and another's commit may overlap.
    other.pragma('journal_mode = WAL');
    const late = asSqliteLike(openRawSqlite(path));
    const options = { path, clock: new ManualClock(), migrations: MIGRATIONS, views: VIEWS };
    let raced = false;
    // The other process creates the whole store right after this one has read version 0.
    const racing: SqliteLike = {
      exec: (sql) => late.exec(sql),
      close: () => late.close(),
      prepare: (sql) => {
        const statement = late.prepare(sql);
        if (sql !== 'PRAGMA user_version' || raced) return statement;
        return {
          run: (...params) => statement.run(...params),
          all: (...params) => statement.all(...params),
          get: (...params) => {
            const row = statement.get(...params);
            raced = true;
            migrate(asSqliteLike(other), options);
            return row;
          },
        };
      },
    };
    const report = migrate(racing, options);
    expect(raced).toBe(true);
    expect(report).toMatchObject({ from: 0, applied: [] });
    expect(readUserVersion(late)).toBe(LATEST_SCHEMA_VERSION);
    late.close();
    other.close();
  });

  it('leaves the store at the previous version, intact and backed up, when a step fails', async () => {
    const path = freshPath();
    const ids = await storeWithRows(path);
    const broken: Migration = {
      version: LATEST_SCHEMA_VERSION + 1,
      name: 'broken',
      // The first statement succeeds; the second fails, so only a real rollback undoes the first.
      sql: "ALTER TABLE memories ADD COLUMN probe TEXT NOT NULL DEFAULT 'legacy';\nCREATE TABLE half (",
    };
    const db = openRawSqlite(path);
    let error: unknown;
    try {
      migrate(asSqliteLike(db), {
        path,
        clock: new ManualClock('2025-07-01T10:00:00Z'),
        migrations: [...MIGRATIONS, broken],
        views: VIEWS,
      });
    } catch (e) {
      error = e;
    }
    const previous = LATEST_SCHEMA_VERSION;
    expect(isMemoryError(error, 'MIGRATION_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(`v${previous + 1} \\(broken\\) failed.*unchanged at v${previous}.*backup`),
    );
    expect(readUserVersion(asSqliteLike(db))).toBe(previous);
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('memories');
    expect(columns).not.toContain('probe');
    expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(previous);
    expect(db.prepare('SELECT count(*) FROM active_memories').pluck().get()).toBe(5);
    db.close();

    const backups = backupsOf(path);
    expect(backups).toEqual([`mnemo.db.bak-v${previous}-20250701T100000000Z`]);
    const store = await openSqliteStore({ path });
    expect((await store.getMemories(ids)).map((m) => m.content)).toEqual(
      ids.map((_, i) => `migration survivor ${i}`),
    );
    expect(await store.searchLexical('survivor', { limit: 10 })).toHaveLength(5);
    await store.close();
    const backup = await openSqliteStore({ path: join(dirname(path), backups[0]!) });
    expect(await backup.countMemories()).toBe(5);
    await backup.close();
  });

  it('applies a new step, backfills existing rows and recreates views with the new column', async () => {
    const path = freshPath();
    await storeWithRows(path);
    const db = openRawSqlite(path);
    const report = migrate(asSqliteLike(db), {
      path,
      clock: new ManualClock(),
      migrations: [...MIGRATIONS, NEXT_STEP],
      views: VIEWS,
    });
    expect(report).toMatchObject({
      from: LATEST_SCHEMA_VERSION,
      to: NEXT_STEP.version,
      applied: ['probe-column'],
    });
    expect(report.backupPath).toMatch(new RegExp(`mnemo\\.db\\.bak-v${LATEST_SCHEMA_VERSION}-`));
    const bands = db.prepare('SELECT DISTINCT probe FROM active_memories').pluck().all();
    expect(bands).toEqual(['legacy']);
    const hits = db
      .prepare("SELECT count(*) FROM memories_lex WHERE memories_lex MATCH 'survivor'")
      .pluck()
      .get();
    expect(hits).toBe(5);
    db.exec("INSERT INTO memories_lex (memories_lex) VALUES ('integrity-check')");
    db.close();
    const error = await rejection(openSqliteStore({ path }));
    expect(isMemoryError(error, 'SCHEMA_TOO_NEW')).toBe(true);
  });
});
