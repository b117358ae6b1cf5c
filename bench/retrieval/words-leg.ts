/**
 * The words leg `bench:latency` times: the SIF embedder over a GloVe table, with every memory's words
 * vector stored first (kept in the cached store for the next run), answering the bench's queries from
 * vectors computed beforehand; or why it is skipped.
 */
import { existsSync } from 'node:fs';

import { resolveMnemoHome } from '../../src/config/home.js';
import { loadWordTable, wordTablePath } from '../../src/embed/word-table.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { embedPending } from '../../src/retrieval/embed-pending.js';
import { openWordEmbedder } from '../../src/retrieval/word-vectors.js';
import type { MemoryStore } from '../../src/store/store.js';

export async function wordsLeg(
  store: MemoryStore,
  on: { table: string | undefined; queries: readonly string[]; progress: (line: string) => void },
): Promise<Embedder | { skipped: string }> {
  const path = on.table ?? wordTablePath(resolveMnemoHome(process.env));
  if (!existsSync(path)) {
    return { skipped: `skipped: no word-vector table at ${path} (run \`mnemo model words\`)` };
  }
  const sif = await openWordEmbedder(store, loadWordTable(path));
  const { embedded } = await embedPending(store, sif, {
    slot: 'extra',
    max: Number.MAX_SAFE_INTEGER,
    batchSize: 1000,
  });
  if (embedded > 0) on.progress(`stored ${embedded} words vectors (${sif.model})`);
  const wordVectors = await sif.embed([...on.queries]);
  const byQuery = new Map(on.queries.map((q, i) => [q, wordVectors[i]!]));
  return {
    model: sif.model,
    dims: sif.dims,
    embed: async (texts) =>
      Promise.all(texts.map(async (t) => byQuery.get(t) ?? (await sif.embed([t]))[0]!)),
  };
}
