/** What a PostgreSQL store is opened with (open-postgres-store.ts builds it). */
import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/ids.js';
import type { StoreDescription } from '../store.js';
import type { Author } from '../write-rules.js';
import type { PgLike } from './pg-like.js';
import type * as vectors from './postgres-vectors.js';

export interface PostgresStoreDeps {
  db: PgLike;
  /** Host, port and database without credentials, for messages. */
  where: string;
  schema: string;
  clock: Clock;
  ids: IdSource;
  schemaVersion: number;
  vectors: vectors.VectorSupport;
  description: StoreDescription;
  /** Fault-injection seam: runs inside every write transaction just before COMMIT. */
  onBeforeCommit?: ((action: string) => void) | undefined;
  /** Stamped on new memories, and the default reader of scoped reads. */
  author?: Author | undefined;
}
