/** What a SQLite store is opened with (open-sqlite-store.ts builds it). */
import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/ids.js';
import type { Author } from '../write-rules.js';
import type { SqliteLike } from './sqlite-like.js';
import type { SqliteVectorMirror } from './sqlite-vector-mirror.js';

export interface SqliteStoreDeps {
  db: SqliteLike;
  /** The database file, for messages. */
  path: string;
  clock: Clock;
  ids: IdSource;
  schemaVersion: number;
  /** Fault-injection seam: runs inside every write transaction just before COMMIT. */
  onBeforeCommit?: ((action: string) => void) | undefined;
  /** Stamped on new memories, and the default reader of scoped reads. */
  author?: Author | undefined;
  /** The resident vector mirror (`residentVectors`); absent: every vector search goes to vec0. */
  mirror?: SqliteVectorMirror | undefined;
}
