/**
 * `mnemo migrate-store --to <url>` end to end with the built binary: a real SQLite store (memories with
 * vectors of two models, a superseded memory, a quarantined one, audit, ledger) copied into a real
 * PostgreSQL schema; the copy is byte-identical on export, the audit chain of the target verifies, a
 * second run changes nothing, and a run over a partly copied target finishes the copy.
 */
import { expect, it } from 'vitest';

import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import type { ExportedMemory, MemoryStore } from '../../src/store/store.js';
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { describeWithPostgres, freshSchema } from '../helpers/postgres-test-db.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();

async function exported(store: MemoryStore): Promise<ExportedMemory[]> {
  const out: ExportedMemory[] = [];
  for await (const record of store.exportMemories()) out.push(record);
  return out;
}

async function seed(home: string): Promise<ExportedMemory[]> {
  return withStore(home, async (app) => {
    const store = app.store;
    const v = (model: string, ...values: number[]) => ({
      vector: { model, values: Float32Array.from(values) },
    });
    const a = await store.remember(
      { content: 'Deploy with make deploy.', projectKey: '/p/api', origin: 'user' },
      v('use-lite-512', 1, 0, 0),
    );
    await store.supersede(
      a.memory.id,
      { content: 'Deploy with just deploy.', projectKey: '/p/api', origin: 'user' },
      v('use-lite-512', 0, 1, 0),
    );
    await store.remember(
      {
        content: 'Rate limits reset hourly.',
        projectKey: '/p/api',
        origin: 'network',
        originTool: 'WebFetch',
      },
      v('hash', 0.5, 0.5),
    );
    for (let i = 0; i < 120; i += 1) {
      await store.remember({
        content: `capture ${i}: edited src/module-${i}.ts`,
        projectKey: '/p/web',
        origin: 'local_edit',
        kind: 'capture',
      });
    }
    await store.recordInjection({
      sessionId: 's-1',
      event: 'session-start',
      source: 'startup',
      projectKey: '/p/api',
      memoryIds: [a.memory.id],
      tokens: 40,
    });
    return exported(store);
  });
}

describeWithPostgres('mnemo migrate-store (built binary)', (server) => {
  it('copies a whole SQLite store into PostgreSQL, verified, and a second run changes nothing', async () => {
    const t = newHome();
    const source = await seed(t.home);
    const url = await server.url({ schema: freshSchema('copy') });
    const first = await t.run(['migrate-store', '--to', url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/memories: 123 \(123 imported, 0 already there\)/);
    expect(first.stdout).toMatch(/verified: the target holds every record/);
    expect(first.stderr).toMatch(/memories \[#{30}\] 123\/123\n/);
    const target = await openPostgresStore({ url });
    try {
      expect((await exported(target)).map((r) => JSON.stringify(r))).toEqual(
        source.map((r) => JSON.stringify(r)),
      );
      expect(await target.checkIntegrity()).toEqual([]);
      const sourceAudit = await withStore(t.home, (app) => app.store.readAudit(0, 1000));
      const copied = (await target.readAudit(0, 1000)).filter(
        (e) => e.detail['copiedFrom'] !== undefined,
      );
      expect(copied.map((e) => [e.action, e.memoryId, e.at])).toEqual(
        sourceAudit.map((e) => [e.action, e.memoryId, e.at]),
      );
      expect(await target.injectedIds('s-1')).toEqual([source[0]!.id]);
      const near = await target.searchVector(
        { model: 'hash', values: Float32Array.from([0.5, 0.5]) },
        { limit: 1 },
      );
      expect(near[0]?.id).toBe(source.find((r) => r.vector?.model === 'hash')?.id);
    } finally {
      await target.close();
    }
    const again = await t.run(['migrate-store', '--to', url, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      memories: { source: 123, imported: 0, skipped: 123 },
      audit: { appended: 0 },
      ledger: { appended: 0 },
      problems: [],
    });
  });

  it('finishes an interrupted copy', async () => {
    const t = newHome();
    const source = await seed(t.home);
    const url = await server.url({ schema: freshSchema('resume') });
    // What an interrupted run leaves: some memories copied, nothing else.
    const partial = await openPostgresStore({ url });
    for (const record of source.slice(0, 40)) await partial.importMemory(record);
    await partial.close();
    const result = await t.run(['migrate-store', '--to', url, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      memories: { imported: 83, skipped: 40 },
      problems: [],
    });
    const target = await openPostgresStore({ url });
    try {
      expect((await exported(target)).map((r) => r.id)).toEqual(source.map((r) => r.id));
    } finally {
      await target.close();
    }
  });

  it('refuses a target that is not PostgreSQL, and says why when the server is unreachable', async () => {
    const t = newHome();
    await seed(t.home);
    const wrong = await t.run(['migrate-store', '--to', 'sqlite:///tmp/x.db']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/migrate-store copies into PostgreSQL/);
    const down = await t.run(['migrate-store', '--to', 'postgres://nobody@127.0.0.1:1/none']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Cannot reach PostgreSQL at postgres:\/\/127\.0\.0\.1:1\/none/);
  });
});
