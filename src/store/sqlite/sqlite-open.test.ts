import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { asSqliteLike, openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { holdExclusiveLock } from '../../../test/helpers/hold-lock.js';
import { isMemoryError } from '../../core/errors.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { verifyAuditChain } from './sqlite-audit.js';
import { configureConnection, MMAP_SIZE_BYTES } from './sqlite-connection.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(dir, `case-${(counter += 1)}`, 'nested', 'mnemo.db');

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

async function filledStore(path: string, rows: number): Promise<void> {
  const store = await openSqliteStore({ path });
  for (let i = 0; i < rows; i += 1) {
    await store.remember({ content: `row ${i} ${'padding '.repeat(40)}`, projectKey: '/p' });
  }
  await store.close();
}

describe('openSqliteStore', () => {
  it('creates missing directories as 0700 and the database file as 0600', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    await store.close();
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('configures WAL, busy timeout, synchronous NORMAL, foreign keys and memory-mapped reads', () => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    const db = openRawSqlite(path);
    configureConnection(asSqliteLike(db), 1234);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('mmap_size', { simple: true })).toBe(MMAP_SIZE_BYTES);
    db.close();
  });

  // SQLite answers the switch to WAL with SQLITE_BUSY at once while another process writes, without
  // waiting on busy_timeout: a second process opening a fresh store beside a writer used to fail.
  describe('switching to WAL while another process writes a rollback-journal file', () => {
    const rollbackFile = () => {
      const path = freshPath();
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, '');
      const seed = openRawSqlite(path);
      seed.exec('CREATE TABLE t (x)');
      seed.close();
      return path;
    };

    it('waits for the writer within the busy timeout and ends in WAL', async () => {
      const path = rollbackFile();
      const writer = await holdExclusiveLock(path, {
        begin: 'BEGIN IMMEDIATE',
        releaseAfterMs: 300,
      });
      const db = openRawSqlite(path);
      try {
        configureConnection(asSqliteLike(db), 10_000);
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      } finally {
        db.close();
        await writer.release();
      }
    });

    it('gives up with SQLITE_BUSY once the busy timeout has passed', async () => {
      const path = rollbackFile();
      const writer = await holdExclusiveLock(path, { begin: 'BEGIN IMMEDIATE' });
      const db = openRawSqlite(path);
      try {
        let failure: unknown;
        try {
          configureConnection(asSqliteLike(db), 100);
        } catch (error) {
          failure = error;
        }
        expect((failure as { code?: string } | undefined)?.code).toMatch(/^SQLITE_BUSY/);
      } finally {
        db.close();
        await writer.release();
      }
      expect(readFileSync(path).subarray(18, 20)).toEqual(Buffer.from([1, 1]));
    });
  });

  it('leaves a store in WAL mode on disk', async () => {
    const path = freshPath();
    await filledStore(path, 1);
    expect(readFileSync(path).subarray(18, 20)).toEqual(Buffer.from([2, 2]));
  });

  it('reports a file that is not a database as STORE_CORRUPT and leaves it untouched', async () => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    const text = 'these are my notes, not a database\n'.repeat(200);
    writeFileSync(path, text);
    const error = await rejection(openSqliteStore({ path }));
    expect(isMemoryError(error, 'STORE_CORRUPT')).toBe(true);
    expect((error as Error).message).toContain('is damaged or is not a mnemo database');
    expect((error as Error).message).toContain(`${path}.bak-*`);
    expect((error as Error).message).toContain('`mnemo restore`');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('reports damaged pages as STORE_CORRUPT instead of an empty store', async () => {
    const path = freshPath();
    await filledStore(path, 200);
    const size = statSync(path).size;
    const pageSize = 4096;
    // Keep page 1 (header and schema) so the file still opens, then scramble every other page.
    const fd = openSync(path, 'r+');
    const garbage = Buffer.alloc(pageSize, 0xa5);
    for (let offset = pageSize; offset < size; offset += pageSize)
      writeSync(fd, garbage, 0, pageSize, offset);
    closeSync(fd);
    const error = await rejection(
      openSqliteStore({ path }).then(async (store) => {
        try {
          return await store.listMemories({ limit: 10 });
        } finally {
          await store.close();
        }
      }),
    );
    expect(isMemoryError(error, 'STORE_CORRUPT')).toBe(true);
  });

  it('reports a path it cannot open as STORE_UNAVAILABLE', async () => {
    const path = freshPath();
    mkdirSync(path, { recursive: true });
    const error = await rejection(openSqliteStore({ path }));
    expect(isMemoryError(error, 'STORE_UNAVAILABLE')).toBe(true);
  });

  it('answers STORE_BUSY with a next step while another connection holds the write lock', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path, busyTimeoutMs: 50 });
    const other = openRawSqlite(path);
    other.exec('BEGIN IMMEDIATE');
    const error = await rejection(store.remember({ content: 'blocked', projectKey: '/p' }));
    expect(isMemoryError(error, 'STORE_BUSY')).toBe(true);
    expect((error as Error).message).toMatch(/locked by another mnemo process.*busy timeout/);
    other.exec('COMMIT');
    other.close();
    expect((await store.remember({ content: 'blocked', projectKey: '/p' })).created).toBe(true);
    await store.close();
  });

  it('refuses calls after close with STORE_UNAVAILABLE', async () => {
    const store = await openSqliteStore({ path: freshPath() });
    await store.close();
    await store.close();
    const error = await rejection(store.countMemories());
    expect(isMemoryError(error, 'STORE_UNAVAILABLE')).toBe(true);
  });

  it('keeps the audit log append-only and its hash chain verifiable', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    const { memory } = await store.remember({ content: 'audited', projectKey: '/p' });
    await store.updateMemory(memory.id, { pinned: true });
    await store.forget(memory.id);
    await store.close();
    const db = openRawSqlite(path);
    expect(verifyAuditChain(asSqliteLike(db))).toBeNull();
    expect(() => db.exec("UPDATE audit_log SET action = 'x'")).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM audit_log')).toThrow(/append-only/);
    // A same-user attacker can drop the guard; the chain still shows the edit.
    db.exec('DROP TRIGGER audit_log_no_update');
    db.exec(`UPDATE audit_log SET detail = '{"pinned":false}' WHERE seq = 2`);
    expect(verifyAuditChain(asSqliteLike(db))).toBe(2);
    db.close();
  });

  it('uses seq as the rowid the indexes share, so VACUUM keeps them in sync', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const vector = { model: 'm', values: Float32Array.from([1, i]) };
      ids.push(
        (await store.remember({ content: `vacuum ${i}`, projectKey: '/p' }, { vector })).memory.id,
      );
    }
    for (const id of ids.filter((_, i) => i % 2 === 0)) await store.forget(id);
    await store.close();
    const db = openRawSqlite(path);
    db.exec('VACUUM');
    db.exec("INSERT INTO memories_lex (memories_lex) VALUES ('integrity-check')");
    db.exec("INSERT INTO memories_terms (memories_terms, rank) VALUES ('integrity-check', 1)");
    db.close();
    const reopened = await openSqliteStore({ path });
    const hits = await reopened.searchVector(
      { model: 'm', values: Float32Array.from([1, 19]) },
      { limit: 1 },
    );
    expect(hits.map((h) => h.id)).toEqual([ids[19]]);
    expect(await reopened.searchLexical('vacuum', { limit: 50 })).toHaveLength(10);
    await reopened.close();
  });
});
