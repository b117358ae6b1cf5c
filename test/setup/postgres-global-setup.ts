/**
 * Vitest global setup: starts one throwaway PostgreSQL cluster for the whole run (test/helpers/
 * postgres-server.ts) and provides its address to the test files, which make their own databases and
 * schemas on it. Without PostgreSQL binaries the PostgreSQL tests skip with a loud notice, except in
 * CI (CI=true), where a missing server is a failure: `.ci/run` installs it.
 */
import type { TestProject } from 'vitest/node';

import {
  findPostgresBinaries,
  type PostgresServer,
  startPostgresServer,
} from '../helpers/postgres-server.js';
import { PASSWORD_ROLE, storeEnabled } from '../helpers/store-selection.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test server's superuser URL of database `postgres`, or '' when PostgreSQL tests are off. */
    postgresAdminUrl: string;
    /** Why PostgreSQL tests are off, when they are. */
    postgresSkipReason: string;
  }
}

let server: PostgresServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  project.provide('postgresAdminUrl', '');
  project.provide('postgresSkipReason', '');
  if (!storeEnabled('postgres')) {
    project.provide('postgresSkipReason', 'STORES does not list postgres');
    return;
  }
  if (findPostgresBinaries() === undefined) {
    const reason = 'PostgreSQL server binaries (initdb, pg_ctl) are not installed';
    if (process.env['CI'] === 'true')
      throw new Error(
        `${reason}; CI must run the PostgreSQL tests (.ci/run installs postgresql-15).`,
      );
    console.warn(
      `\n${'!'.repeat(78)}\n!! ${reason}: the PostgreSQL store tests are SKIPPED.\n!! Install postgresql-15 (Debian) to run them.\n${'!'.repeat(78)}\n`,
    );
    project.provide('postgresSkipReason', reason);
    return;
  }
  server = await startPostgresServer({ passwordRoles: [PASSWORD_ROLE] });
  project.provide('postgresAdminUrl', server.adminUrl);
}

export function teardown(): void {
  server?.stop();
  server = undefined;
}
