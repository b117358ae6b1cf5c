import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll } from 'vitest';

import { inspectSqliteFile } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { describeStoreContract } from '../contract/store.contract.js';
import type { MemoryStore } from '../store.js';
import { openSqliteStore, type OpenSqliteStoreOptions } from './open-sqlite-store.js';

// Child processes cannot load TypeScript: they import the compiled adapter (`npm test` builds first).
const DIST_OPENER = fileURLToPath(
  new URL('../../../dist/store/sqlite/open-sqlite-store.js', import.meta.url),
);

const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
const paths = new WeakMap<MemoryStore, string>();

async function open({
  sharing,
  ...options
}: Omit<OpenSqliteStoreOptions, 'path'> & { path?: string; sharing?: MemoryStore }) {
  counter += 1;
  const shared = sharing === undefined ? undefined : paths.get(sharing);
  const path = options.path ?? shared ?? join(dir, `store-${counter}`, 'mnemo.db');
  const store = await openSqliteStore({ ...options, path });
  paths.set(store, path);
  return store;
}

describeStoreContract({
  name: 'sqlite',
  open: (options = {}) => open(options),
  inspect: (store) => Promise.resolve(inspectSqliteFile(paths.get(store) ?? '')),
  multiProcess: () => {
    if (!existsSync(DIST_OPENER)) {
      throw new Error(`${DIST_OPENER} is missing: run \`npm run build\` before the store tests.`);
    }
    // A fresh path on purpose: the children also race to create and migrate the file.
    const path = join(dir, `shared-${counter++}`, 'mnemo.db');
    return Promise.resolve({
      child: {
        module: pathToFileURL(DIST_OPENER).href,
        exportName: 'openSqliteStore',
        options: { path },
      },
      open: () => open({ path }),
    });
  },
});
