import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { asSqliteLike, openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { ManualClock } from '../contract/fixtures.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { migrate } from './sqlite-migrate.js';
import { MIGRATIONS, VIEWS } from './sqlite-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

/** A v4 store made by the v1–v4 migrations (so v5, v6 and v7 all run on it), with raw rows as a v4 build would have written them. */
function v4StoreWith(rows: readonly { origin: string; content: string }[]): string {
  const path = join(dir, `case-${(counter += 1)}`, 'mnemo.db');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  const db = openRawSqlite(path);
  const clock = new ManualClock();
  migrate(asSqliteLike(db), { path, clock, migrations: MIGRATIONS.slice(0, 4), views: VIEWS });
  const insert = db.prepare(
    `INSERT INTO memories (id, content, project_key, visibility, kind, origin, created_at, updated_at,
     content_hash, trust_band, quarantine, gate_reason) VALUES (?, ?, '/p', 'project', 'capture', ?,
     '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', ?, 'untrusted', 'pending', 'novel')`,
  );
  rows.forEach((row, i) => {
    insert.run(`01JFX${String(i + 1).padStart(21, '0')}`, row.content, row.origin, `h${i}`);
  });
  db.close();
  return path;
}

describe('schema v7 migration (source address)', () => {
  it('backfills the address of fetch captures from their first line, normalised as the write path does', async () => {
    const rows = [
      {
        origin: 'network',
        content:
          'Fetched https://user:pw@Docs.Example.COM:443/a/b?token=x#frag:\nRate limits reset hourly.',
      },
      { origin: 'network', content: 'Fetched http://example.org:\nA page at the root.' },
      // The address was capped by the builder: the marker makes it no address.
      {
        origin: 'network',
        content: 'Fetched https://example.org/long … [truncated 9 chars]:\nText.',
      },
      // The fetch carried no URL: the builder wrote the tool name.
      { origin: 'network', content: 'Fetched WebFetch:\nText.' },
      // Same text shape, but not from the network channel: nothing is inferred from content alone.
      { origin: 'user', content: 'Fetched https://example.net/x:\nI typed this.' },
      { origin: 'network', content: 'Searched the web for "x":\nresults' },
    ];
    const path = v4StoreWith(rows);
    const store = await openSqliteStore({ path });
    const memories = await store.getMemories(
      rows.map((_, i) => `01JFX${String(i + 1).padStart(21, '0')}`),
    );
    await store.close();
    expect(memories.map((m) => m.sourceUrl)).toEqual([
      'https://docs.example.com/a/b',
      'http://example.org/',
      null,
      null,
      null,
      null,
    ]);
    const raw = openRawSqlite(path);
    try {
      const hosts = raw.prepare('SELECT source_host FROM memories ORDER BY seq').pluck().all();
      expect(hosts).toEqual(['docs.example.com', 'example.org', null, null, null, null]);
      const indexes = raw
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memories'")
        .pluck()
        .all();
      expect(indexes).toEqual(expect.arrayContaining(['memories_browse', 'memories_warm']));
    } finally {
      raw.close();
    }
  });

  it('stores the address of a new memory with its host, and refuses one that is not normalised', async () => {
    const path = join(dir, `case-${(counter += 1)}`, 'mnemo.db');
    const store = await openSqliteStore({ path });
    const { memory } = await store.remember({
      content: 'page text',
      projectKey: '/p',
      origin: 'network',
      sourceUrl: 'https://docs.example.com/guide',
    });
    expect(memory.sourceUrl).toBe('https://docs.example.com/guide');
    await expect(
      store.remember({
        content: 'other text',
        projectKey: '/p',
        origin: 'network',
        sourceUrl: 'https://docs.example.com/guide?key=secret',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await store.close();
    const raw = openRawSqlite(path);
    try {
      expect(raw.prepare('SELECT source_url, source_host FROM memories').all()).toEqual([
        { source_url: 'https://docs.example.com/guide', source_host: 'docs.example.com' },
      ]);
    } finally {
      raw.close();
    }
  });
});
