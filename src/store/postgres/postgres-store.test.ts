import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll } from 'vitest';

import {
  clientQueryable,
  describeWithPostgres,
  freshSchema,
  inspectPostgresSchema,
  rawClient,
} from '../../../test/helpers/postgres-test-db.js';
import { storeEnabled } from '../../../test/helpers/store-selection.js';
import { describeStoreContract } from '../contract/store.contract.js';
import type { MemoryStore } from '../store.js';
import { openPostgresStore, type OpenPostgresStoreOptions } from './open-postgres-store.js';

// Child processes cannot load TypeScript: they import the compiled adapter (`npm test` builds first).
const DIST_OPENER = fileURLToPath(
  new URL('../../../dist/store/postgres/open-postgres-store.js', import.meta.url),
);

if (storeEnabled('postgres')) {
  describeWithPostgres('postgres server', (server) => {
    const schemas = new WeakMap<MemoryStore, string>();
    let raw: Awaited<ReturnType<typeof rawClient>> | undefined;
    afterAll(async () => raw?.end());

    async function open({
      sharing,
      ...options
    }: Omit<OpenPostgresStoreOptions, 'url'> & { schema?: string; sharing?: MemoryStore } = {}) {
      const shared = sharing === undefined ? undefined : schemas.get(sharing);
      const schema = options.schema ?? shared ?? freshSchema();
      const store = await openPostgresStore({ ...options, url: await server.url({ schema }) });
      schemas.set(store, schema);
      return store;
    }

    describeStoreContract({
      name: 'postgres',
      open: (options = {}) => open(options),
      inspect: async (store) => {
        raw ??= await rawClient(await server.url());
        return inspectPostgresSchema(clientQueryable(raw), schemas.get(store) ?? '');
      },
      multiProcess: async () => {
        if (!existsSync(DIST_OPENER)) {
          throw new Error(
            `${DIST_OPENER} is missing: run \`npm run build\` before the store tests.`,
          );
        }
        // A fresh schema on purpose: the children also race to create and migrate it.
        const schema = freshSchema('shared');
        const url = await server.url({ schema });
        return {
          child: {
            module: pathToFileURL(DIST_OPENER).href,
            exportName: 'openPostgresStore',
            options: { url },
          },
          open: () => open({ schema }),
        };
      },
    });
  });
}
