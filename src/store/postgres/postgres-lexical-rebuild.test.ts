/**
 * The lexical index rebuild on open, on a real PostgreSQL server, for a process on a deadline (a hook):
 * a store too large to rebuild inside a hook's deadline is left as it is with STORE_BUSY, and the next
 * open without a deadline rebuilds it; a small one is rebuilt by the hook itself.
 */
import { expect, it } from 'vitest';

import { describeWithPostgres, freshSchema } from '../../../test/helpers/postgres-test-db.js';
import { isMemoryError } from '../../core/errors.js';
import { INLINE_REBUILD_MAX_ROWS, LEXICAL_INDEX_VERSION } from '../lexical-rules.js';
import { openPostgresStore } from './open-postgres-store.js';

describeWithPostgres('postgres lexical index rebuild on open', (server) => {
  /** A store of `memories` rows whose index and contexts an earlier context rule left. */
  async function staleStore(memories: number): Promise<{ url: string; earlier: number }> {
    const schema = freshSchema('lex');
    const url = await server.url({ schema });
    const store = await openPostgresStore({ url });
    for (let i = 0; i < memories; i += 1) {
      await store.remember({
        content: `deploy step ${i} of the release train`,
        projectKey: 'mine',
        origin: 'local_exec',
        sessionId: `s-${Math.floor(i / 50)}`,
      });
    }
    await store.close();
    await server.admin(
      `UPDATE ${schema}.lexical_state SET analyzer = 'porter2-v1+ctx-earlier' WHERE id = 1`,
    );
    const { rowCount } = await server.admin(
      `UPDATE ${schema}.memories SET context = 'earlier' WHERE context <> ''`,
    );
    return { url, earlier: rowCount ?? 0 };
  }

  async function indexState(url: string): Promise<{ analyzer: string; earlier: number }> {
    const schema = new URL(url).searchParams.get('schema');
    const analyzer = await server.admin(`SELECT analyzer FROM ${schema}.lexical_state`);
    const earlier = await server.admin(
      `SELECT count(*)::int AS n FROM ${schema}.memories WHERE context = 'earlier'`,
    );
    return {
      analyzer: String((analyzer.rows[0] as { analyzer: string }).analyzer),
      earlier: Number((earlier.rows[0] as { n: number }).n),
    };
  }

  it(`leaves a rebuild over more than ${INLINE_REBUILD_MAX_ROWS} memories to a process without a deadline`, async () => {
    const { url, earlier } = await staleStore(INLINE_REBUILD_MAX_ROWS + 1);
    expect(earlier).toBeGreaterThan(INLINE_REBUILD_MAX_ROWS - 50);
    const deferred = await openPostgresStore({ url, deferLongRebuild: true }).catch(
      (error: unknown) => error,
    );
    expect(isMemoryError(deferred, 'STORE_BUSY')).toBe(true);
    expect((deferred as Error).message).toMatch(/must be rebuilt.*2001 memories.*mnemo doctor/);
    expect(await indexState(url)).toEqual({ analyzer: 'porter2-v1+ctx-earlier', earlier });

    const store = await openPostgresStore({ url });
    expect(await indexState(url)).toEqual({ analyzer: LEXICAL_INDEX_VERSION, earlier: 0 });
    expect(await store.searchLexical('deploy', { limit: 3 })).toHaveLength(3);
    await store.close();
    // Once rebuilt, the deadline-bound open goes through.
    await (await openPostgresStore({ url, deferLongRebuild: true })).close();
  }, 120_000);

  it('rebuilds a small store on open even for a process with a deadline', async () => {
    const { url } = await staleStore(60);
    const store = await openPostgresStore({ url, deferLongRebuild: true });
    expect(await indexState(url)).toEqual({ analyzer: LEXICAL_INDEX_VERSION, earlier: 0 });
    expect(await store.searchLexical('deploy', { limit: 3 })).toHaveLength(3);
    await store.close();
  });
});
