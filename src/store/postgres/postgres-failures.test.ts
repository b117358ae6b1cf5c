/**
 * Bad configuration and faults on a real PostgreSQL server: a wrong password, a missing database, a
 * role without CREATE rights and a server that goes away mid-session each give STORE_UNAVAILABLE with
 * a message that names the fix, and the store works again once the server is back.
 */
import { afterAll, expect, it } from 'vitest';

import { describeWithPostgres, freshSchema } from '../../../test/helpers/postgres-test-db.js';
import { PASSWORD_ROLE } from '../../../test/helpers/store-selection.js';
import { startTcpProxy, type TcpProxy } from '../../../test/helpers/tcp-proxy.js';
import { isMemoryError } from '../../core/errors.js';
import { openPostgresStore } from './open-postgres-store.js';

async function openError(url: string): Promise<Error> {
  try {
    const store = await openPostgresStore({ url, busyTimeoutMs: 2000 });
    await store.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the open to fail');
}

describeWithPostgres('postgres store faults', (server) => {
  const proxies: TcpProxy[] = [];
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
  });

  it('names the credentials to fix when the password is wrong, and never prints the password', async () => {
    await server.admin(
      `DO $$ BEGIN CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD 'right-password';
       EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
    );
    const error = await openError(
      await server.url({
        user: PASSWORD_ROLE,
        password: 'wrong-password-1234',
        schema: freshSchema(),
      }),
    );
    expect(isMemoryError(error, 'STORE_UNAVAILABLE'), String(error)).toBe(true);
    expect(error.message).toMatch(
      /refused the login .*Check the user name and password in MNEMO_DATABASE_URL/,
    );
    expect(error.message).not.toContain('wrong-password-1234');
  });

  it('names the database to create when it does not exist', async () => {
    const error = await openError(
      await server.url({ database: 'no_such_database', schema: 'mnemo' }),
    );
    expect(isMemoryError(error, 'STORE_UNAVAILABLE'), String(error)).toBe(true);
    expect(error.message).toMatch(/does not exist.*Create it \(`createdb <name>`/);
  });

  it('names the grant to ask for when the role may not create the schema, and creates nothing', async () => {
    const role = 'mnemo_no_create';
    await server.admin(
      `DO $$ BEGIN CREATE ROLE ${role} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
    );
    const schema = freshSchema();
    const error = await openError(await server.url({ user: role, schema }));
    expect(isMemoryError(error, 'STORE_UNAVAILABLE'), String(error)).toBe(true);
    expect(error.message).toMatch(/may not create mnemo's schema.*GRANT CREATE ON DATABASE/);
    const { rows } = await server.admin('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    expect(rows).toEqual([]);
    // Once an administrator hands it a schema, the same role opens the store.
    await server.admin(`CREATE SCHEMA ${schema} AUTHORIZATION ${role}`);
    const store = await openPostgresStore({ url: await server.url({ user: role, schema }) });
    expect(
      (await store.remember({ content: 'works after the grant', projectKey: '/p' })).created,
    ).toBe(true);
    await store.close();
  });

  it('reports STORE_UNAVAILABLE when the server goes away mid-session, and recovers when it is back', async () => {
    const proxy = await startTcpProxy(
      new URL(server.adminUrl).port === '' ? 5432 : Number(new URL(server.adminUrl).port),
    );
    proxies.push(proxy);
    const direct = new URL(await server.url({ schema: freshSchema() }));
    direct.port = String(proxy.port);
    const store = await openPostgresStore({ url: direct.toString(), busyTimeoutMs: 1000 });
    try {
      const first = await store.remember({ content: 'before the outage', projectKey: '/p' });
      await proxy.cut();
      const error = await store.remember({ content: 'during the outage', projectKey: '/p' }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(isMemoryError(error, 'STORE_UNAVAILABLE'), String(error)).toBe(true);
      expect(error?.message).toMatch(
        /Cannot reach PostgreSQL at postgres:\/\/127\.0\.0\.1:\d+\/.*spool/,
      );
      const read = await store.getMemory(first.memory.id).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(isMemoryError(read, 'STORE_UNAVAILABLE'), String(read)).toBe(true);
      await proxy.restore();
      expect((await store.getMemory(first.memory.id))?.content).toBe('before the outage');
      const after = await store.remember({ content: 'after the outage', projectKey: '/p' });
      expect(after.created).toBe(true);
      expect(await store.countMemories()).toBe(2);
    } finally {
      await store.close();
    }
  });
});
