import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inspectSqliteFile } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import type { ExportedMemory, MemoryStore } from '../store.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { LATEST_SCHEMA_VERSION } from './sqlite-schema.js';

/**
 * Upgrade tests over the frozen databases of every released schema (threat model S1). Each fixture
 * was written by its own release (scripts/make-sqlite-fixture.mjs) and is opened here by today's code.
 * When a migration adds columns, add what it backfills on old rows to BACKFILLED under its version.
 */
const BACKFILLED: Record<number, Partial<Record<string, unknown>>> = {};

interface Manifest {
  schemaVersion: number;
  memories: ExportedMemory[];
  lexical: { query: string; includeSuperseded: boolean; ids: string[] }[];
  vector: { model: string; values: number[]; nearest: string }[];
}

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/sqlite/', import.meta.url));
const fixtureFiles = readdirSync(FIXTURES)
  .filter((file) => /^schema-v\d+\.db$/.test(file))
  .sort();
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
    exported.forEach((memory, i) => expect(memory).toMatchObject(manifest.memories[i]!));
  });

  it('keeps lexical search working over the migrated rows', async () => {
    for (const { query, includeSuperseded, ids } of manifest.lexical) {
      const hits = await store.searchLexical(query, { limit: 20, includeSuperseded });
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
      for (const memory of exported) expect(memory).toMatchObject(BACKFILLED[version] ?? {});
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
