/**
 * One write transaction of the PostgreSQL store on one pooled connection: BEGIN, the work, the tallied
 * term statistics (postgres-lexical.ts), the buffered audit appends (postgres-audit.ts), the test seam,
 * COMMIT; any throw rolls it all back. Retried from
 * the start when PostgreSQL reports a serialization failure, a deadlock or a lost race on a unique key
 * (two writers creating the same memory at once): the retry sees the winner's row and takes the
 * ordinary path (dedupe, CONFLICT). A write that needs a vector space not created yet is rolled back,
 * the space is created on its own (postgres-vectors.ts, `VectorSpaceMissing`) and the write runs again
 * without spending an attempt.
 */
import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/ids.js';
import type { Author } from '../write-rules.js';
import type { PgLike } from './pg-like.js';
import { AuditBuffer, flushAudit } from './postgres-audit.js';
import { isRetryable } from './postgres-errors.js';
import { flushLexical, LexicalTally } from './postgres-lexical.js';
import { createSpace, VectorSpaceMissing, type VectorSupport } from './postgres-vectors.js';
import type { PgWriteContext } from './postgres-writes.js';

/** Attempts of one write when PostgreSQL asks for a retry. */
export const WRITE_ATTEMPTS = 6;

/** Vector spaces one write may wait to be created (a memory and its extra vectors need at most a few). */
const SPACES_PER_WRITE = 8;

function pause(attempt: number): Promise<void> {
  // Jittered and growing: writers that collided should not collide again in step.
  const ms = 5 * 2 ** attempt * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface WriteDeps {
  db: PgLike;
  schema: string;
  clock: Clock;
  ids: IdSource;
  vectors: VectorSupport;
  onBeforeCommit?: ((action: string) => void) | undefined;
  author?: Author | undefined;
}

/** Runs `work` in a transaction; throws the driver's error untranslated after the last attempt. */
export async function runWrite<T>(
  deps: WriteDeps,
  action: string,
  work: (ctx: PgWriteContext) => Promise<T>,
): Promise<T> {
  let spacesCreated = 0;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await deps.db.withConnection(async (conn) => {
        const audit = new AuditBuffer();
        const lexical = new LexicalTally();
        const ctx: PgWriteContext = {
          db: conn,
          ids: deps.ids,
          at: deps.clock.now().toISOString(),
          vectors: deps.vectors,
          audit,
          lexical,
          author: deps.author,
        };
        await conn.query('BEGIN');
        try {
          const result = await work(ctx);
          await flushLexical(conn, lexical);
          await flushAudit(conn, deps.schema, audit);
          deps.onBeforeCommit?.(action);
          await conn.query('COMMIT');
          return result;
        } catch (error) {
          await conn.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof VectorSpaceMissing && spacesCreated < SPACES_PER_WRITE) {
        spacesCreated += 1;
        const { model, dims } = error;
        try {
          await deps.db.withConnection((conn) =>
            createSpace(conn, deps.vectors, deps.schema, { model, dims }),
          );
          attempt -= 1;
          continue;
        } catch (spaceError) {
          if (attempt >= WRITE_ATTEMPTS || !isRetryable(spaceError)) throw spaceError;
          await pause(attempt);
          continue;
        }
      }
      if (attempt >= WRITE_ATTEMPTS || !isRetryable(error)) throw error;
      await pause(attempt);
    }
  }
}
