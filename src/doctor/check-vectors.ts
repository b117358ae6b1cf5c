/**
 * Doctor check of the stored sentence vectors: how many the configured embedder has, whether they were
 * built by today's rule (retrieval/embed-pending.ts; recall drops and rebuilds those of an earlier one),
 * and how many memories still wait for one. Read-only: it reports, `mnemo reembed` acts.
 */
import type { App } from '../app/open-app.js';
import { sentenceVectorRule } from '../retrieval/embed-pending.js';
import { readVectorRule, UNKNOWN_VECTOR_RULE } from '../store/vector-rules.js';
import { fail, pass } from './doctor-check.js';

/** Memories without a vector counted at most (the listing reads whole rows). */
export const MISSING_COUNT_CAP = 10_000;

const REBUILD =
  'Run `mnemo reembed` to rebuild them now (or leave `mnemo serve` running: the engine rebuilds them in the background).';

export async function checkVectors(app: App) {
  const { openEmbedder } = await import('../embed/open-embedder.js');
  const embedder = await openEmbedder(app.config);
  const model = embedder.model;
  const rule = sentenceVectorRule(embedder);
  const [record, stats, listed] = await Promise.all([
    readVectorRule(app.store, model),
    app.store.stats(),
    app.store.listUnembedded(model, MISSING_COUNT_CAP + 1),
  ]);
  const stored = stats.vectors[model] ?? 0;
  const missing = Math.min(listed.length, MISSING_COUNT_CAP);
  const missingText = `${missing}${listed.length > MISSING_COUNT_CAP ? '+' : ''}`;
  const olderRule = record?.rule === rule ? 0 : stored;
  const data = {
    model,
    rule,
    recordedRule: record?.rule ?? null,
    vectors: stored - olderRule,
    olderRule,
    droppedNotRebuilt: record?.rule === rule && missing > 0 ? record.dropped : 0,
    missing,
  };
  if (olderRule > 0) {
    const by =
      record === undefined
        ? 'before rules were recorded'
        : record.rule === UNKNOWN_VECTOR_RULE
          ? 'by an unknown rule (imported)'
          : `by rule ${record.rule}`;
    return fail(
      `${olderRule} ${model} vectors were built ${by}, not by today's rule ${rule}: recall does not use them`,
      REBUILD,
      data,
    );
  }
  if (data.droppedNotRebuilt > 0) {
    return fail(
      `${record?.dropped} ${model} vectors of an older rule were dropped and ${missingText} memories still have no vector`,
      REBUILD,
      data,
    );
  }
  const waiting =
    missing === 0
      ? ''
      : `; ${missingText} memories not embedded yet (recall and the engine embed them as they go, \`mnemo reembed\` all at once)`;
  return pass(`${stored} ${model} vectors, all by rule ${rule}${waiting}`, data);
}
