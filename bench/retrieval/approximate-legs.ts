/**
 * The approximate vector legs `bench:latency` compares with the exact one (the store's sqlite-vec scan),
 * over one SQLite store's vector space: sign codes held in memory with exact re-scoring through the
 * store port (sign-codes.ts), and sqlite-vec's own `bit[]` Hamming KNN over a temporary table of the
 * same codes, re-scored by exact cosine in SQL. Bench-only: reads the store file directly (read-only
 * connection; the `bit[]` table lives in the connection's temp schema, never in the store).
 */
import type { SqliteLike } from '../../src/store/sqlite/sqlite-like.js';
import type { MemoryStore, Scope } from '../../src/store/store.js';
import { vectorBytes, vectorFromBytes } from '../../src/store/write-rules.js';
import { recallAt, rescoreExactly, signBits, SignCodeIndex } from './sign-codes.js';

export interface ApproximateHit {
  id: string;
  score: number;
}

export interface ApproximateLegs {
  /** Sign codes in memory → the best `rescore` → exact cosine from `store.getVectors`. */
  signCodes(query: Float32Array, limit: number, rescore: number): Promise<ApproximateHit[]>;
  /** sqlite-vec `bit[]` KNN (k = `rescore`) → exact cosine against the float table, in one query. */
  sqliteBits(query: Float32Array, limit: number, rescore: number): ApproximateHit[];
  /** Milliseconds to read the vectors and build both code sets (once per process and store). */
  buildMs: number;
  close(): void;
}

export function openApproximateLegs(
  db: SqliteLike,
  store: MemoryStore,
  model: string,
  dims: number,
): ApproximateLegs {
  const began = performance.now();
  const space = db
    .prepare('SELECT table_name FROM vector_spaces WHERE model = ? AND dims = ?')
    .get(model, dims) as { table_name: string } | undefined;
  if (space === undefined) throw new Error(`The store holds no ${model} vectors.`);
  const rows = db
    .prepare(
      `SELECT m.id AS id, m.seq AS seq, v.embedding AS embedding FROM memories m
       JOIN ${space.table_name} v ON v.rowid = m.seq`,
    )
    .all() as { id: string; seq: number; embedding: Uint8Array }[];
  const vectors = new Map(rows.map((row) => [row.id, vectorFromBytes(row.embedding)]));
  const index = new SignCodeIndex(vectors, dims);
  const bits = Math.ceil(dims / 8) * 8;
  db.exec(`CREATE VIRTUAL TABLE temp.bench_bits USING vec0(embedding bit[${bits}])`);
  const insert = db.prepare(
    'INSERT INTO temp.bench_bits (rowid, embedding) VALUES (CAST(? AS INTEGER), vec_bit(?))',
  );
  db.exec('BEGIN');
  for (const row of rows) {
    insert.run(row.seq, Buffer.from(signBits(vectorFromBytes(row.embedding))));
  }
  db.exec('COMMIT');
  const buildMs = performance.now() - began;
  const bitsSql = (k: number) =>
    `WITH coarse AS (SELECT rowid FROM temp.bench_bits WHERE embedding MATCH vec_bit(?) AND k = ${k})
     SELECT m.id AS id,
       (SELECT vec_distance_cosine(v.embedding, ?) FROM ${space.table_name} v
        WHERE v.rowid = coarse.rowid) AS distance
     FROM coarse JOIN memories m ON m.seq = coarse.rowid ORDER BY distance, m.seq LIMIT ?`;
  return {
    buildMs,
    async signCodes(query, limit, rescore) {
      const candidates = index.candidates(query, rescore);
      return rescoreExactly(query, candidates, await store.getVectors(candidates, model), limit);
    },
    sqliteBits(query, limit, rescore) {
      const hits = db
        .prepare(bitsSql(rescore))
        .all(Buffer.from(signBits(query)), Buffer.from(vectorBytes(query)), limit) as {
        id: string;
        distance: number;
      }[];
      return hits.map((hit) => ({ id: hit.id, score: 1 - hit.distance }));
    },
    close: () => db.close(),
  };
}

/** Recall@k of an approximate leg against the exact one, averaged over the queries. */
export interface ApproximateRecall {
  leg: string;
  rescore: number;
  recallAt10: number;
  /** Recall at the leg's depth (what fusion receives). */
  recallAtDepth: number;
}

/**
 * Recall@10 and @depth of each approximate leg (sign codes, sqlite-vec `bit[]`) at each re-scoring size,
 * against the store's exact vector leg for the same query vectors.
 */
export async function approximateRecall(
  on: {
    store: MemoryStore;
    approximate: ApproximateLegs;
    vectors: readonly Float32Array[];
    model: string;
    scope: Scope;
  },
  options: { depth: number; rescore: readonly number[] },
): Promise<ApproximateRecall[]> {
  const { store, approximate, vectors, model, scope } = on;
  const { depth } = options;
  const exact = await Promise.all(
    vectors.map((values) => store.searchVector({ model, values }, { scope, limit: depth })),
  );
  type Run = (query: Float32Array, rescore: number) => Promise<ApproximateHit[]>;
  const legs: [string, Run][] = [
    ['sign codes in memory', (q, r) => approximate.signCodes(q, depth, r)],
    ['sqlite-vec bit[]', (q, r) => Promise.resolve(approximate.sqliteBits(q, depth, r))],
  ];
  const out: ApproximateRecall[] = [];
  for (const [leg, run] of legs) {
    for (const rescore of options.rescore) {
      let at10 = 0;
      let atDepth = 0;
      for (const [i, query] of vectors.entries()) {
        const ids = (await run(query, rescore)).map((hit) => hit.id);
        const truth = exact[i]!.map((hit) => hit.id);
        at10 += recallAt(10, ids, truth);
        atDepth += recallAt(depth, ids, truth);
      }
      const n = Math.max(1, vectors.length);
      out.push({ leg, rescore, recallAt10: at10 / n, recallAtDepth: atDepth / n });
    }
  }
  return out;
}
