/**
 * The schema v5 project-key backfill over the frozen v4 fixture: path keys whose directory now has a
 * portable key move to it, two checkouts of one repository merge with their duplicate text superseded,
 * keys the resolver does not know stay, and every move is audited (the composition root's resolver:
 * app/open-app.rekey.test.ts).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';
import { QUARANTINE_STATES } from '../../core/memory.js';
import { openSqliteStore } from './open-sqlite-store.js';

const V4 = fileURLToPath(new URL('../../../test/fixtures/sqlite/schema-v4.db', import.meta.url));
const ALPHA = '/home/dev/projects/alpha';
const BETA = '/home/dev/projects/beta';
const tempDir = useTempDirs();
const every = { limit: 100, includeSuperseded: true, quarantine: QUARANTINE_STATES };

function v4Copy(): string {
  const path = join(tempDir(), 'mnemo.db');
  copyFileSync(V4, path);
  return path;
}

describe('schema v5 project re-key', () => {
  it('moves a path key to its portable key, leaves unknown keys, and audits the move', async () => {
    const path = v4Copy();
    const before = await openSqliteStore({ path: v4Copy() });
    const old = await before.listMemories(every);
    await before.close();
    const store = await openSqliteStore({
      path,
      rekeyProject: (key) => (key === ALPHA ? 'git:example.com/acme/alpha' : undefined),
    });
    try {
      const after = await store.listMemories(every);
      expect(after.map((m) => m.id).sort()).toEqual(old.map((m) => m.id).sort());
      for (const memory of after) {
        const was = old.find((m) => m.id === memory.id)!;
        expect(memory.projectKey).toBe(
          was.projectKey === ALPHA ? 'git:example.com/acme/alpha' : was.projectKey,
        );
        expect({ ...memory, projectKey: was.projectKey }).toMatchObject({
          ...was,
          authorUser: null,
        });
      }
      expect(after.some((m) => m.projectKey === BETA)).toBe(true);
      const raw = openRawSqlite(path);
      try {
        const entries = raw
          .prepare("SELECT detail FROM audit_log WHERE action = 'rekey'")
          .pluck()
          .all() as string[];
        expect(entries.map((d) => JSON.parse(d) as Record<string, unknown>)).toEqual([
          {
            from: ALPHA,
            to: 'git:example.com/acme/alpha',
            merged: 0,
            rows: old.filter((m) => m.projectKey === ALPHA).length,
          },
        ]);
      } finally {
        raw.close();
      }
      expect(await store.checkIntegrity()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('merges two checkouts of one repository, superseding the later duplicate', async () => {
    const path = v4Copy();
    const seed = await openSqliteStore({ path: v4Copy() });
    await seed.close();
    // Give beta a copy of one of alpha's active texts before the upgrade, by raw insert as v4 would.
    const raw = openRawSqlite(path);
    const alphaRow = raw
      .prepare(
        "SELECT * FROM memories WHERE project_key = ? AND superseded_by IS NULL AND quarantine <> 'rejected' ORDER BY seq LIMIT 1",
      )
      .get(ALPHA) as Record<string, unknown>;
    const twinId = '01JFX9999999999999999999ZZ';
    const columns = Object.keys(alphaRow).filter((c) => c !== 'seq');
    raw
      .prepare(
        `INSERT INTO memories (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      )
      .run(
        ...(columns.map((c) =>
          c === 'id'
            ? twinId
            : c === 'project_key'
              ? BETA
              : c === 'created_at'
                ? '2025-06-01T00:00:00.000Z'
                : alphaRow[c],
        ) as never[]),
      );
    raw.close();
    const store = await openSqliteStore({
      path,
      rekeyProject: (key) =>
        key === ALPHA || key === BETA ? 'git:example.com/acme/app' : undefined,
    });
    try {
      const twin = await store.getMemory(twinId);
      expect(twin).toMatchObject({
        projectKey: 'git:example.com/acme/app',
        supersededBy: alphaRow['id'],
      });
      expect(await store.getMemory(alphaRow['id'] as string)).toMatchObject({ supersededBy: null });
      expect((await store.auditTrail(twinId)).map((e) => e.action)).toEqual(['superseded']);
      expect(
        await store.countMemories({ scope: { projectKey: ALPHA, includeGlobal: false } }),
      ).toBe(0);
      expect(await store.checkIntegrity()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
