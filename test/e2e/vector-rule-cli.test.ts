/**
 * The built `mnemo` on a store whose sentence vectors were built before rules were recorded (the rows
 * the earlier code left: its vectors and no rule record), on a SQLite file and on PostgreSQL: doctor
 * names how many vectors are of an older rule and what to run, `mnemo reembed` says it drops and
 * rebuilds them, and doctor is clean afterwards.
 */
import { expect, it } from 'vitest';

import { vectorRuleKey } from '../../src/store/vector-rules.js';
import { openRawSqlite } from '../fixtures/sqlite/raw-sqlite.js';
import { doctorCheck, doctorJson } from '../helpers/doctor-json.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { describeWithPostgres, freshSchema, rawClient } from '../helpers/postgres-test-db.js';

const newHome = useTestHomes();

const TEXTS = [
  'The staging cluster is called heliotrope',
  'Deploys run migrations before switching traffic',
  'The product cache expires after five minutes',
];

/** Forgets the rule record, as a store written by the code before rules were recorded has none. */
type ForgetRule = (model: string) => Promise<void>;

async function upgradeRoundTrip(t: TestHome, forgetRule: ForgetRule): Promise<void> {
  for (const text of TEXTS) {
    const remembered = await t.run(['remember', text]);
    expect(remembered.code, remembered.stderr).toBe(0);
  }
  const first = await t.run(['reembed']);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toMatch(/Embedded 3 memories/);
  expect(first.stdout).not.toMatch(/older rule/);

  const fresh = doctorCheck((await doctorJson(t)).report, 'vectors');
  expect(fresh.ok, fresh.detail).toBe(true);
  expect(fresh.data).toMatchObject({ vectors: 3, olderRule: 0, missing: 0 });
  const model = String(fresh.data?.['model']);
  expect(fresh.data?.['recordedRule']).toBe(fresh.data?.['rule']);

  await forgetRule(model);
  const stale = doctorCheck((await doctorJson(t)).report, 'vectors');
  expect(stale.ok).toBe(false);
  expect(stale.detail).toContain(`3 ${model} vectors were built before rules were recorded`);
  expect(stale.fix).toContain('mnemo reembed');
  expect(stale.data).toMatchObject({ vectors: 0, olderRule: 3, recordedRule: null });

  const rebuilt = await t.run(['reembed']);
  expect(rebuilt.code, rebuilt.stderr).toBe(0);
  expect(rebuilt.stdout).toContain(`3 ${model} vectors were built by an older rule`);
  expect(rebuilt.stdout).toMatch(/Embedded 3 memories/);

  const after = doctorCheck((await doctorJson(t)).report, 'vectors');
  expect(after.ok, after.detail).toBe(true);
  expect(after.data).toMatchObject({ vectors: 3, olderRule: 0, missing: 0, droppedNotRebuilt: 0 });
  const again = await t.run(['reembed']);
  expect(again.stdout).toMatch(/Every memory already has a .* vector \(rule r\d+-/);
}

it('reports and rebuilds older-rule vectors of a SQLite store (built binary)', async () => {
  const t = newHome();
  t.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
  await upgradeRoundTrip(t, (model) => {
    const db = openRawSqlite(t.dbPath);
    try {
      const removed = db
        .prepare('DELETE FROM model_state WHERE model = ?')
        .run(vectorRuleKey(model));
      expect(removed.changes).toBe(1);
    } finally {
      db.close();
    }
    return Promise.resolve();
  });
  // The embedder's name in config is unchanged by any of this.
  const use = await t.run(['model', 'use', 'use-lite-512']);
  expect(use.code, use.stderr).toBe(0);
}, 120_000);

describeWithPostgres('vector rule on PostgreSQL (built binary)', (server) => {
  it('reports and rebuilds older-rule vectors of a PostgreSQL store', async () => {
    const schema = freshSchema('rulecli');
    const t = newHome();
    Object.assign(t.env, {
      MNEMO_DATABASE_URL: await server.url({ schema }),
      MNEMO_EMBEDDING_MODEL: 'hash',
    });
    const raw = await rawClient(await server.url());
    try {
      await upgradeRoundTrip(t, async (model) => {
        const removed = await raw.query(`DELETE FROM ${schema}.model_state WHERE model = $1`, [
          vectorRuleKey(model),
        ]);
        expect(removed.rowCount).toBe(1);
      });
    } finally {
      await raw.end();
    }
  }, 120_000);
});
