/**
 * Two writers meeting a new vector space on a real PostgreSQL server. Creating the space's table takes a
 * lock on `memories` that waits for every open write; when the space was created inside the write that
 * needed it, a writer holding its new memory row and a writer creating the space waited for each other,
 * and with three processes the deadlock recurred until a write ran out of attempts. The writes here are
 * stepped through that exact interleaving, with the server's errors recorded at the driver.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';

import { describeWithPostgres, freshSchema } from '../../../test/helpers/postgres-test-db.js';
import { ulidSource } from '../default-ids.js';
import type { MemoryStore } from '../store.js';
import { poolAsPgLike } from './open-postgres-store.js';
import type { PgLike, PgQueryable } from './pg-like.js';
import { sqlState } from './postgres-errors.js';
import { openPostgresStoreOn } from './postgres-open.js';

const MODEL = 'space-race-model';
const wallClock = { now: () => new Date() };

interface Pause {
  /** The first statement matching this is let through, then the connection waits for `gate`. */
  after: RegExp;
  gate: Promise<void>;
  reached: () => void;
}

/** `db` with every server error's SQLSTATE appended to `codes`, and an optional pause. */
function recorded(db: PgLike, codes: string[], pause?: Pause): PgLike {
  let paused = false;
  const wrap = (inner: PgQueryable): PgQueryable => ({
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      try {
        const result = await inner.query<R>(sql, params);
        if (pause !== undefined && !paused && pause.after.test(sql)) {
          paused = true;
          pause.reached();
          await pause.gate;
        }
        return result;
      } catch (error) {
        codes.push(sqlState(error) ?? 'no-sqlstate');
        throw error;
      }
    },
    exec: async (sql) => {
      try {
        await inner.exec(sql);
      } catch (error) {
        codes.push(sqlState(error) ?? 'no-sqlstate');
        throw error;
      }
    },
  });
  return {
    ...wrap(db),
    withConnection: (work) => db.withConnection((c) => work(wrap(c))),
    close: () => db.close(),
  };
}

describeWithPostgres('postgres vector spaces', (server) => {
  const stores: MemoryStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  async function open(
    schema: string,
    codes: string[],
    pause?: Pause,
    onBeforeCommit?: (action: string) => void,
  ): Promise<MemoryStore> {
    const pool = new pg.Pool({
      connectionString: await server.url(),
      max: 4,
      options: `-c search_path=${schema} -c lock_timeout=20000`,
    });
    const store = await openPostgresStoreOn({
      db: recorded(poolAsPgLike(pool), codes, pause),
      schema,
      where: 'test server',
      clock: wallClock,
      ids: ulidSource(wallClock),
      ...(onBeforeCommit === undefined ? {} : { onBeforeCommit }),
    });
    stores.push(store);
    return store;
  }

  async function rowsOf<R>(sql: string, params?: unknown[]): Promise<R[]> {
    return (await server.admin(sql, params)).rows as R[];
  }

  async function count(sql: string): Promise<number> {
    return Number((await rowsOf<{ n: number }>(sql))[0]?.n);
  }

  const lockWaiters = (): Promise<number> =>
    count(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );

  it('creates a space another writer also needs, while that writer holds its new memory, without a deadlock', async () => {
    const schema = freshSchema('vs');
    const codes: string[] = [];
    let release = (): void => undefined;
    let reached = (): void => undefined;
    const holding = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = await open(schema, codes, { after: /^INSERT INTO memories/, gate, reached });
    const second = await open(schema, codes);
    const vector = (seed: number) => ({
      model: MODEL,
      values: Float32Array.from([seed, 1, 0, 0.5]),
    });

    const firstWrite = first.remember(
      { content: 'first writer holds its row', projectKey: '/race' },
      { vector: vector(1) },
    );
    await holding;
    const secondWrite = second.remember(
      { content: 'second writer makes the space', projectKey: '/race' },
      { vector: vector(2) },
    );
    // The space's table waits for the first writer's open transaction.
    for (let tries = 0; (await lockWaiters()) === 0; tries += 1) {
      if (tries > 400) throw new Error('the second writer never waited for the first');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    const outcomes = await Promise.all([firstWrite, secondWrite]);

    expect(codes, 'errors the server reported to the writers').toEqual([]);
    expect(outcomes.map((o) => o.created)).toEqual([true, true]);
    const spaces = await rowsOf<{ table_name: string }>(
      `SELECT table_name FROM ${schema}.vector_spaces WHERE model = $1`,
      [MODEL],
    );
    expect(spaces).toHaveLength(1);
    const stored = await rowsOf<{ content: string }>(
      `SELECT m.content FROM ${schema}.memories m
       JOIN ${schema}.${String(spaces[0]?.table_name)} v ON v.seq = m.seq
       WHERE m.embedding_model = $1 ORDER BY m.content`,
      [MODEL],
    );
    expect(stored.map((r) => r.content)).toEqual([
      'first writer holds its row',
      'second writer makes the space',
    ]);
  });

  it('keeps the space of a write that failed after making it: empty, registered once, used by the next write', async () => {
    const schema = freshSchema('vs');
    const codes: string[] = [];
    let failNext = true;
    const store = await open(schema, codes, undefined, () => {
      if (failNext) {
        failNext = false;
        throw new Error('fault before commit');
      }
    });
    await expect(
      store.remember(
        { content: 'rolled back', projectKey: '/race' },
        { vector: { model: MODEL, values: Float32Array.from([1, 0, 0, 0]) } },
      ),
    ).rejects.toThrow('fault before commit');
    expect(await store.countMemories()).toBe(0);
    const made = await rowsOf<{ table_name: string }>(
      `SELECT table_name FROM ${schema}.vector_spaces`,
    );
    expect(made).toHaveLength(1);
    const table = `${schema}.${String(made[0]?.table_name)}`;
    expect(await count(`SELECT count(*)::int AS n FROM ${table}`)).toBe(0);

    const outcome = await store.remember(
      { content: 'committed', projectKey: '/race' },
      { vector: { model: MODEL, values: Float32Array.from([1, 1, 0, 0]) } },
    );
    expect(outcome.created).toBe(true);
    expect(await count(`SELECT count(*)::int AS n FROM ${schema}.vector_spaces`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM ${table}`)).toBe(1);
    expect(codes).toEqual([]);
  });
});
