/**
 * Advisory lock keys. Each lock is keyed by (class, hash of the store's schema), so several mnemo
 * stores in one database never wait for each other, and no key collides with another application's
 * single-bigint advisory locks (those use the one-argument form).
 */
import { createHash } from 'node:crypto';

/** The lock classes, as int4 'mnm' + a digit so a `pg_locks` reader can tell them apart. */
export const LOCK_CLASS = {
  /** Held for a whole migration run (session level). */
  migrate: 0x6d6e6d01,
  /** Held by a transaction from its first audit append to its commit: the audit chain is one sequence. */
  audit: 0x6d6e6d02,
  /** Held by the transaction that rebuilds the lexical index (postgres-lexical.ts). */
  lexical: 0x6d6e6d03,
  /** Held by the transaction that creates a vector space (postgres-vectors.ts `createSpace`). */
  vectorSpace: 0x6d6e6d04,
} as const;

/** A stable int4 from the schema name (the first four bytes of its sha256). */
export function advisoryKey(schema: string): number {
  return createHash('sha256').update(schema, 'utf8').digest().readInt32BE(0);
}
