import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';
import { openSqliteStore } from './open-sqlite-store.js';

const tempDir = useTempDirs();

async function storeWithMemories(): Promise<string> {
  const path = join(tempDir('mnemo-integrity-'), 'mnemo.db');
  const store = await openSqliteStore({ path });
  for (const content of ['the deploy script lives in ops/deploy.sh', 'use pnpm, not npm']) {
    const { memory } = await store.remember({ content, projectKey: '/p' });
    await store.setVector(memory.id, { model: 'test-3', values: new Float32Array([1, 0, 0]) });
  }
  await store.close();
  return path;
}

async function problemsOf(path: string): Promise<string[]> {
  const store = await openSqliteStore({ path });
  try {
    return await store.checkIntegrity();
  } finally {
    await store.close();
  }
}

describe('SQLite integrity check', () => {
  it('reports nothing for a healthy store', async () => {
    expect(await problemsOf(await storeWithMemories())).toEqual([]);
  });

  it('reports a lexical index that lost an entry', async () => {
    const path = await storeWithMemories();
    const db = openRawSqlite(path);
    // Bypass the store: remove one document from the index only.
    db.exec('DELETE FROM memories_lex WHERE rowid = (SELECT min(seq) FROM memories)');
    db.close();
    const problems = await problemsOf(path);
    expect(problems).toContain('memories_lex: 1 memories missing from the lexical index');
  });

  it('reports an audit entry edited after the fact', async () => {
    const path = await storeWithMemories();
    const db = openRawSqlite(path);
    db.exec('DROP TRIGGER audit_log_no_update');
    db.exec('UPDATE audit_log SET detail = \'{"forged":true}\' WHERE seq = 1');
    db.close();
    expect(await problemsOf(path)).toContain('audit chain breaks at entry 1');
  });

  it('reports vectors left behind by a memory deleted behind the store', async () => {
    const path = await storeWithMemories();
    const db = openRawSqlite(path);
    db.exec('DELETE FROM memories WHERE seq = (SELECT min(seq) FROM memories)');
    db.close();
    const problems = await problemsOf(path);
    expect(problems.some((line) => /vectors without a memory/.test(line))).toBe(true);
  });
});
