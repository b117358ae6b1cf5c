/**
 * The resident vector mirror of a long-lived process (the engine): every vec0 space held in memory as a
 * `VectorSlab`, so the vector leg's global first pass is a contiguous scan instead of sqlite-vec's.
 * Off unless the store is opened with `residentVectors`; one-shot commands never load it.
 *
 * It fails safe towards today's path. Its own connection's vector writes (sqlite-vectors.ts reports
 * them) are held until their transaction commits (sqlite-tx.ts reports it), then applied; a rolled-back
 * write never reaches it. A
 * commit by any other connection changes `PRAGMA data_version`: the mirror is then stale, the query
 * is answered by vec0, and a rebuild starts in the background, in chunks that yield to the event loop
 * between them. A build takes its own connection's commits as they come, and is abandoned when another
 * connection commits while it runs.
 */
import { VectorSlab } from '../vector-slab.js';
import { vectorFromBytes } from '../write-rules.js';
import type { SqliteLike } from './sqlite-like.js';
import { observeTransactions } from './sqlite-tx.js';
import { observeVectorWrites, type VectorChange } from './sqlite-vectors.js';

/** Rows read per chunk of a build: a few milliseconds of work between two turns of the event loop. */
export const MIRROR_CHUNK_ROWS = 2000;
/**
 * Memory the mirror may take. 100k × 256-d is ~103 MB, 100k × 512-d ~205 MB; a space that does not fit
 * what is left stays on vec0 (exact either way).
 */
export const MIRROR_MAX_BYTES = 512 * 1024 * 1024;

export type MirrorState = 'loading' | 'ready' | 'stale' | 'closed';

export interface MirrorStatus {
  state: MirrorState;
  /** Spaces held in memory, by vec table. */
  spaces: { table: string; dims: number; rows: number; bytes: number }[];
  /** Spaces left on vec0 because they did not fit `maxBytes`. */
  skipped: string[];
  /** Completed builds since open. */
  builds: number;
  /** Searches the mirror answered (the others went to vec0). */
  answered: number;
}

export interface MirrorOptions {
  maxBytes?: number;
  chunkRows?: number;
  /**
   * Told when the mirror had to give up (a build failed, or a committed change could not be applied):
   * searches stay correct (vec0 answers), but the owner should log why the mirror is not serving.
   */
  onError?: (what: string, error: unknown) => void;
}

interface SpaceRow {
  model: string;
  dims: number;
  table_name: string;
}

export class SqliteVectorMirror {
  readonly #db: SqliteLike;
  readonly #maxBytes: number;
  readonly #chunkRows: number;
  readonly #onError: (what: string, error: unknown) => void;
  #spaces = new Map<string, VectorSlab>();
  #skipped = new Set<string>();
  #state: MirrorState = 'stale';
  /** `PRAGMA data_version` the mirror matches. */
  #version = -1;
  /** Changes of the write transaction under way; undefined outside one. */
  #pending: VectorChange[] | undefined;
  #builds = 0;
  #answered = 0;
  #building = false;

  constructor(db: SqliteLike, options: MirrorOptions = {}) {
    this.#db = db;
    this.#maxBytes = options.maxBytes ?? MIRROR_MAX_BYTES;
    this.#chunkRows = options.chunkRows ?? MIRROR_CHUNK_ROWS;
    this.#onError = options.onError ?? (() => undefined);
    observeVectorWrites(db, (change) => this.#observe(change));
    observeTransactions(db, {
      begin: () => {
        this.#pending = [];
      },
      end: (committed) => (committed ? this.#committed() : (this.#pending = undefined)),
    });
  }

  /** Starts loading in the background; searches use vec0 until it is ready. */
  start(): void {
    this.#rebuild();
  }

  /** Resolves once the mirror is ready or a build gave up; for tests and the bench. */
  async settled(): Promise<void> {
    while (this.#building) await yieldToLoop();
  }

  status(): MirrorStatus {
    const spaces = [...this.#spaces].map(([table, slab]) => ({
      table,
      dims: slab.dims,
      rows: slab.size,
      bytes: slab.bytes,
    }));
    return {
      state: this.#state,
      spaces,
      skipped: [...this.#skipped],
      builds: this.#builds,
      answered: this.#answered,
    };
  }

  /**
   * The seqs of the `k` rows of `table` nearest to `values`, nearest first; undefined when the mirror
   * cannot answer (not loaded, stale, or the space is not held): the caller uses vec0.
   */
  nearest(table: string, values: ArrayLike<number>, k: number): number[] | undefined {
    if (this.#state !== 'ready') {
      if (this.#state === 'stale') this.#rebuild();
      return undefined;
    }
    if (this.#dataVersion() !== this.#version) {
      this.#state = 'stale';
      this.#rebuild();
      return undefined;
    }
    const slab = this.#spaces.get(table);
    if (slab === undefined) return undefined;
    this.#answered++;
    return slab.nearest(values, k).map((hit) => hit.seq);
  }

  /** The transaction committed: its changes reach the mirror now. */
  #committed(): void {
    const changes = this.#pending ?? [];
    this.#pending = undefined;
    if (changes.length === 0) return;
    if (this.#state !== 'ready' && this.#state !== 'loading') return;
    // While loading, the build's own maps take the change: a row it has read is updated, a row it has
    // yet to read is read as committed.
    try {
      for (const change of changes) this.#apply(change);
    } catch (error) {
      // Cannot happen for changes vec0 accepted; if it does, the mirror is not trusted again.
      this.#markStale();
      this.#onError('could not apply a committed vector change; rebuilding', error);
    }
  }

  close(): void {
    this.#state = 'closed';
    this.#spaces = new Map();
    observeVectorWrites(this.#db, undefined);
    observeTransactions(this.#db, undefined);
  }

  #observe(change: VectorChange): void {
    if (this.#pending === undefined) {
      // A vector write outside a transaction the store opened: nothing to apply it after.
      this.#markStale();
      return;
    }
    this.#pending.push(change);
  }

  #apply(change: VectorChange): void {
    if (change.kind === 'drop') {
      this.#spaces.delete(change.table);
      this.#skipped.delete(change.table);
      return;
    }
    let slab = this.#spaces.get(change.table);
    if (change.kind === 'delete') {
      slab?.delete(change.seq);
      return;
    }
    if (slab === undefined) {
      if (this.#skipped.has(change.table)) return;
      // A space created by this write; it grows row by row from here.
      slab = new VectorSlab(change.dims);
      this.#spaces.set(change.table, slab);
    }
    slab.put(change.seq, change.values);
  }

  #markStale(): void {
    if (this.#state === 'closed') return;
    this.#state = 'stale';
    this.#spaces = new Map();
  }

  #dataVersion(): number {
    return (this.#db.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
  }

  #rebuild(): void {
    if (this.#building || this.#state === 'closed') return;
    this.#building = true;
    this.#state = 'loading';
    this.#spaces = new Map();
    this.#skipped = new Set();
    void this.#build()
      // A failed read leaves the mirror stale (vec0 answers); the owner hears why.
      .catch((error: unknown) => this.#onError('build failed; vec0 answers', error))
      .finally(() => {
        this.#building = false;
      });
  }

  async #build(): Promise<void> {
    const version = this.#dataVersion();
    const spaces = this.#spaces;
    const skipped = this.#skipped;
    const unchanged = () =>
      this.#state === 'loading' && this.#spaces === spaces && this.#dataVersion() === version;
    let budget = this.#maxBytes;
    try {
      const rows = this.#db
        .prepare('SELECT model, dims, table_name FROM vector_spaces ORDER BY id')
        .all() as SpaceRow[];
      for (const space of rows) {
        const table = space.table_name;
        const { n } = this.#db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
        const slab = new VectorSlab(space.dims, n);
        if (slab.bytes > budget) {
          spaces.delete(table);
          skipped.add(table);
          continue;
        }
        budget -= slab.bytes;
        spaces.set(table, slab);
        // Through memories' primary key then vec0's rowid lookup: vec0 has no rowid range scan.
        const chunk = this.#db.prepare(
          `SELECT v.rowid AS seq, v.embedding AS embedding FROM memories m JOIN ${table} v
           ON v.rowid = m.seq WHERE m.seq > ? ORDER BY m.seq LIMIT ?`,
        );
        for (let after = -1; ; ) {
          const batch = chunk.all(after, this.#chunkRows) as {
            seq: number;
            embedding: Uint8Array;
          }[];
          for (const row of batch) slab.put(row.seq, vectorFromBytes(row.embedding));
          await yieldToLoop();
          if (!unchanged()) return this.#gaveUp();
          if (batch.length < this.#chunkRows) break;
          after = batch[batch.length - 1]!.seq;
        }
      }
    } catch (error) {
      this.#gaveUp();
      throw error;
    }
    if (!unchanged()) return this.#gaveUp();
    this.#version = version;
    this.#state = 'ready';
    this.#builds++;
  }

  #gaveUp(): void {
    if (this.#state === 'loading') this.#state = 'stale';
  }
}

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
