/**
 * The evidence calibrated relevance reads (core/ranking/relevance.ts), gathered from one recall's legs
 * and fusion: the word index's body coverage, the vector leg's cosine standardised against the rest of
 * the pool (only for a sentence model the dense model was fit for), the fused lead over the best other
 * candidate, and whether the concept leg found it (whose hit covers the cue's share of the query).
 */
import { CALIBRATED_DENSE_MODELS, type RelevanceEvidence } from '../core/ranking/relevance.js';
import type { FusedHit } from '../core/ranking/rrf.js';
import type { LegHits } from './legs.js';

/** The smallest deviation a pool's cosines are divided by: a pool of near-equal cosines has no outlier. */
export const MIN_SIMILARITY_SPREAD = 0.05;

export function relevanceEvidence(
  legs: readonly LegHits[],
  exact: ReadonlyMap<string, ReadonlyMap<string, number>>,
  fused: readonly FusedHit[],
  /** The vector leg's model: its evidence counts only for a model the dense model was fit for. */
  vectorModel?: string,
  /**
   * The share of the query a concept-leg hit answers by naming a member of the kind the query asks
   * about: such a hit covers at least that much, as it holds no word of the cue itself.
   */
  conceptCoverage = 0,
): Map<string, Omit<RelevanceEvidence, 'rank'>> {
  const byName = new Map(legs.map((leg) => [leg.name, leg]));
  const coverage = new Map<string, number>();
  for (const hit of byName.get('lexical')?.hits ?? []) {
    coverage.set(hit.id, (hit as { coverage?: number }).coverage ?? 0);
  }
  const concept = new Set((byName.get('concept')?.hits ?? []).map((hit) => hit.id));
  const cueShare = Math.max(0, Math.min(1, conceptCoverage));
  if (cueShare > 0) {
    for (const id of concept) coverage.set(id, Math.max(coverage.get(id) ?? 0, cueShare));
  }
  const dense =
    vectorModel !== undefined && CALIBRATED_DENSE_MODELS.includes(vectorModel)
      ? byName.get('vector')
      : undefined;
  const similarity = dense === undefined ? undefined : standardised(dense, exact.get(dense.name));
  const totals = fused.map((hit) => hit.total ?? hit.score);
  const best = [...totals].sort((a, b) => b - a);
  const bestCoverage = Math.max(0, ...coverage.values());
  const out = new Map<string, Omit<RelevanceEvidence, 'rank'>>();
  fused.forEach((hit, i) => {
    const total = totals[i]!;
    const other = total === best[0] ? (best[1] ?? total) : best[0]!;
    const z = similarity?.get(hit.id);
    out.set(hit.id, {
      coverage: coverage.get(hit.id) ?? 0,
      ...(similarity === undefined ? {} : { similarityZ: z ?? 0 }),
      lead: best.length < 2 ? 0 : total - other,
      bestCoverage,
      ...(concept.has(hit.id) ? { concept: true } : {}),
    });
  });
  return out;
}

function standardised(
  leg: LegHits,
  extra: ReadonlyMap<string, number> | undefined,
): Map<string, number> {
  const cosines = new Map<string, number>(extra ?? []);
  for (const hit of leg.hits) cosines.set(hit.id, hit.score);
  const values = [...cosines.values()].filter(Number.isFinite);
  if (values.length === 0) return new Map();
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
  const spread = Math.max(sd, MIN_SIMILARITY_SPREAD);
  return new Map([...cosines].map(([id, v]) => [id, Number.isFinite(v) ? (v - mean) / spread : 0]));
}
