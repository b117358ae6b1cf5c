/**
 * The `STORES` filter (architecture §2.11, like Kysely's DIALECTS): `STORES=sqlite,pglite` runs the store
 * tests of those backends only. Unset: every backend. Names: sqlite, postgres (the real server), pglite.
 */
export type StoreName = 'sqlite' | 'postgres' | 'pglite';

/** The role the test server makes log in with a password (scram-sha-256), for the wrong-password tests. */
export const PASSWORD_ROLE = 'mnemo_password_role';

export function storeEnabled(name: StoreName, env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env['STORES']?.trim();
  if (raw === undefined || raw === '') return true;
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .includes(name);
}
