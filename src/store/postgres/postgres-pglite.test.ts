/**
 * The store contract on PGlite with pgvector: the HNSW path of the PostgreSQL adapter, in process.
 * PGlite is single-connection, so the several-processes test belongs to the real server's run.
 */
import { afterAll, describe } from 'vitest';

import { type SharedPglite, startPglite } from '../../../test/helpers/pglite-db.js';
import { freshSchema, inspectPostgresSchema } from '../../../test/helpers/postgres-test-db.js';
import { storeEnabled } from '../../../test/helpers/store-selection.js';
import { describeStoreContract } from '../contract/store.contract.js';
import { ulidSource } from '../default-ids.js';
import type { MemoryStore } from '../store.js';
import { openPostgresStoreOn } from './postgres-open.js';

let shared: Promise<SharedPglite> | undefined;
const lite = (): Promise<SharedPglite> => (shared ??= startPglite());
afterAll(async () => (shared === undefined ? undefined : (await shared).close()));

const schemas = new WeakMap<MemoryStore, string>();

if (storeEnabled('pglite')) {
  describeStoreContract({
    name: 'pglite-pgvector',
    open: async (options = {}) => {
      const shared = options.sharing === undefined ? undefined : schemas.get(options.sharing);
      const schema = shared ?? freshSchema();
      const clock = options.clock ?? { now: () => new Date() };
      const store = await openPostgresStoreOn({
        db: (await lite()).handle(schema),
        schema,
        where: 'pglite',
        clock,
        ids: ulidSource(clock),
        ...(options.onBeforeCommit === undefined ? {} : { onBeforeCommit: options.onBeforeCommit }),
        ...(options.author === undefined ? {} : { author: options.author }),
      });
      schemas.set(store, schema);
      return store;
    },
    inspect: async (store) => {
      const db = (await lite()).handle('public');
      return inspectPostgresSchema(db, schemas.get(store) ?? '');
    },
  });
} else {
  describe.skip('pglite store contract (STORES does not list pglite)', () => undefined);
}
