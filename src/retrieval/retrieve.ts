/**
 * Hybrid recall: turns a query into ranked memories. Backend-agnostic: it talks to the MemoryStore port
 * only and reads what a store can do from its capabilities. The store returns raw candidates per leg
 * (lexical bm25, vector k-NN of the embedder's own model, identifier substrings); fusion (weighted RRF),
 * recency, read-time heat, the bounded trust factor, the optional cross-encoder rerank and MMR are pure
 * code applied here, so every backend ranks the same way. Reads only, plus at most one bounded
 * `recordAccess` when the caller says the results are used.
 */
import { MAX_LIMIT } from '../config/limits.js';
import { MemoryError } from '../core/errors.js';
import type { Memory, MemoryId } from '../core/memory.js';
import type { TrustBand } from '../core/origin/origin-class.js';
import { cosineSimilarity } from '../core/ranking/cosine.js';
import { mmrRerank } from '../core/ranking/mmr.js';
import { entityPrior, queryEntities, sessionPrior } from '../core/ranking/priors.js';
import {
  LEG_WEIGHTS,
  RECALL_RRF_K,
  RECALL_TUNING,
  type RecallTuning,
  scoreVectorWeight,
  vectorLegWeight,
} from '../core/ranking/recall-fusion.js';
import { calibratedRelevance, type RelevanceEvidence } from '../core/ranking/relevance.js';
import { type FusedHit, fuseRankings } from '../core/ranking/rrf.js';
import { rankHits, type ScoredHit, type ScoreFactors } from '../core/ranking/score.js';
import { fuseScores, type ScoredList } from '../core/ranking/score-fusion.js';
import { hashEmbed } from '../embed/hash-embedder.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Reranker } from '../ports/reranker.js';
import type { MemoryFilter, MemoryStore, Scope } from '../store/store.js';
import { type LegHits, type LegName, type LegReport, runLegs } from './legs.js';
import { relevanceEvidence } from './relevance-evidence.js';
import { bandOfOrigin, trustFactorOf } from './trust-factor.js';

/** Per-signal 1-based ranks; a signal is absent when it did not return the memory. */
export interface SignalRanks {
  lexical?: number;
  vector?: number;
  words?: number;
  identifier?: number;
  concept?: number;
  rerank?: number;
}

export interface RankedHit {
  memory: Memory;
  /** Final score: fused relevance × recency × heat × trust. Higher is better; comparable within one list. */
  score: number;
  ranks: SignalRanks;
  /** The trust band of the memory's origin (what the trust factor was read from). */
  trustBand: TrustBand;
  /** Pending review: recallable on explicit request, labelled, never injected proactively. */
  quarantined: boolean;
  /** The fused relevance before the multipliers: (k + 1) / (k + fused rank) with score fusion, the RRF sum with RRF. */
  fusedScore: number;
  factors: ScoreFactors;
  /** Effective heat at query time (decayed lazily). */
  heat: number;
  /** Each leg's and prior's term of the fusion (weighted normalised score, or RRF term), × the factors. */
  contributions: Readonly<Record<string, number>>;
  /**
   * Calibrated relevance in (0, 1): how likely this memory is what the query needs, from the evidence
   * below (core/ranking/relevance.ts); comparable across queries and stores, unlike `score`.
   */
  relevance: number;
  evidence: RelevanceEvidence;
}

export interface RetrieveRequest {
  query: string;
  /** Which memories may be returned: the project plus global ones, never another project's. */
  scope: Scope;
  limit: number;
  filters?: Omit<MemoryFilter, 'scope'>;
  /** Callers that print explanations set this; hits carry their working either way. */
  explain?: boolean;
  /** Re-rank the top candidates for diversity (MMR); `true` uses the default λ. */
  mmr?: boolean | { lambda?: number };
  /**
   * Count returned memories as genuinely used (heat, last access): `true` for all of them, a number for
   * the top n. Off by default: browsing and proactive injection are not use.
   */
  recordAccess?: boolean | number;
  /** Candidates asked from each leg; defaults to `candidateDepth(limit)`. */
  depth?: number;
}

export interface RetrieveDeps {
  store: MemoryStore;
  /** The query embedder. Without it (a hook) the vector leg is skipped. */
  embedder?: Embedder | undefined;
  /** The static word-vector embedder (retrieval/word-vectors). Without it the words leg is skipped. */
  wordEmbedder?: Embedder | undefined;
  /** Fusion settings; recall's measured defaults when omitted (benchmarks and sweeps pass others). */
  tuning?: RecallTuning | undefined;
  reranker?: Reranker | undefined;
  clock: Clock;
}

export interface RetrieveReport {
  hits: RankedHit[];
  legs: LegReport[];
  /** Distinct candidates fused from all legs. */
  candidates: number;
  /** How the legs were fused (`RecallTuning.fusion`), so that no view labels one method as another. */
  fusion: RecallTuning['fusion'];
  rerank: { ran: boolean; model?: string; skipped?: string; window: number };
  mmr: boolean;
}

/** Candidates the cross-encoder scores: its cost is one model call per pair. */
export const RERANK_WINDOW = 30;
/**
 * RRF weight of the cross-encoder's order: twice the lexical leg, because it reads query and memory
 * jointly, the strongest relevance evidence available. It cannot overrule trust: the trust factor
 * multiplies the fused score after it. Not measured here (no real cross-encoder is reachable); see
 * docs/retrieval.md.
 */
export const RERANK_WEIGHT = 2;
/** Dimensions of the lexical vectors MMR compares candidates with (no model needed). */
export const MMR_HASH_DIMS = 256;

/**
 * Candidates asked from each leg for a result of `limit`: enough for fusion to find agreement. 30 for
 * the usual limit of 10: on LoCoMo 0–4 (`npm run bench:sweep`) depths 30 and 50 scored the same
 * (R@10 0.814 both, MRR@10 0.476 / 0.478), and every leg costs more per candidate on a large store.
 */
export function candidateDepth(limit: number): number {
  return Math.min(MAX_LIMIT, Math.max(30, limit * 3));
}

/** Returns at most `limit` memories in scope that match `query`, best first. See `retrieveDetailed`. */
export async function retrieve(deps: RetrieveDeps, request: RetrieveRequest): Promise<RankedHit[]> {
  return (await retrieveDetailed(deps, request)).hits;
}

/**
 * Hybrid recall with its working: which legs ran, how many candidates, whether rerank ran. Superseded
 * memories are left out unless `filters.includeSuperseded`; rejected ones always (store default).
 * Throws INVALID_INPUT for an empty query or a bad limit.
 */
export async function retrieveDetailed(
  deps: RetrieveDeps,
  request: RetrieveRequest,
): Promise<RetrieveReport> {
  const query = request.query.trim();
  if (query.length === 0) {
    throw new MemoryError('INVALID_INPUT', 'The query is empty. Give words to search for.');
  }
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_LIMIT) {
    throw new MemoryError(
      'INVALID_INPUT',
      `The limit must be a whole number from 1 to ${MAX_LIMIT}; got ${request.limit}.`,
    );
  }
  const depth = Math.min(
    MAX_LIMIT,
    Math.max(request.limit, request.depth ?? candidateDepth(request.limit)),
  );
  const tuning = deps.tuning ?? RECALL_TUNING;
  const options = { ...request.filters, scope: request.scope, limit: depth };
  const { legs, reports, hasCode, queryVectors, conceptCoverage } = await runLegs(deps, query, {
    ...options,
    lexicalLimit: tuning.lexicalDepth,
    ...(tuning.lexicalPool === undefined ? {} : { lexicalPool: tuning.lexicalPool }),
    bm25f: tuning.bm25f,
  });
  const weightOf = (name: LegName | 'rerank'): number =>
    legWeight(name, tuning, hasCode, deps.embedder?.model);
  const pool = [...new Set(legs.flatMap((leg) => leg.hits.map((hit) => hit.id)))];
  const memories = await deps.store.getMemories(pool);
  // Defence in depth for R4: whatever a backend returns, nothing outside the scope is ranked.
  const byId = new Map<MemoryId, Memory>(
    memories.filter((m) => inScope(m, request.scope)).map((m) => [m.id, m]),
  );
  const entities = queryEntities(query);
  // The vector legs score every candidate, not only their own k nearest: a lexical candidate's true
  // similarity, instead of the leg's floor (one indexed read per leg).
  const exact: Map<string, Map<string, number>> = tuning.fusion === 'score'
    ? await exactScores(deps, legs, pool, queryVectors)
    : new Map<string, Map<string, number>>();
  const fuse = (extra: LegHits | undefined): FusedHit[] => {
    const all = extra === undefined ? legs : [...legs, extra];
    if (tuning.fusion === 'rrf') {
      return fuseRankings(
        all.map((leg) => ({
          signal: leg.name,
          ids: leg.hits.map((h) => h.id),
          weight: rrfWeight(leg.name, hasCode, deps.embedder?.model),
        })),
        { k: RECALL_RRF_K },
      );
    }
    const lexical = legs.find((leg) => leg.name === 'lexical')?.hits ?? [];
    const sessionOf = new Map([...byId].map(([id, m]) => [id, m.sessionId]));
    return fuseScores(
      all.map(
        (leg): ScoredList => ({
          signal: leg.name,
          hits: leg.hits,
          weight: weightOf(leg.name),
          ...(exact.has(leg.name) ? { scoresOnly: exact.get(leg.name) } : {}),
          ...(tuning.smallPool[leg.name] === undefined
            ? {}
            : { scale: tuning.smallPool[leg.name] }),
        }),
      ),
      {
        normalisation: tuning.normalisation,
        k: RECALL_RRF_K,
        priors: [
          { signal: 'session', values: sessionPrior(lexical, sessionOf), weight: tuning.session },
          { signal: 'entity', values: entityPrior(entities, byId), weight: tuning.entity },
        ],
      },
    );
  };
  let fused = fuse(undefined);
  const now = deps.clock.now().getTime();
  const rank = (): ScoredHit[] =>
    // Recency and heat are bounded tie-breakers inside rankHits (core/ranking/score.ts).
    rankHits(fused, byId, { now, trustOf: (memory) => trustFactorOf(memory.origin) });
  let scored = rank();

  const rerank = await rerankStep(deps.reranker, query, scored, byId, legs);
  if (rerank.leg !== undefined) {
    fused = fuse(rerank.leg);
    scored = rank();
  }
  const useMmr = request.mmr !== undefined && request.mmr !== false;
  if (useMmr) {
    const lambda = typeof request.mmr === 'object' ? request.mmr.lambda : undefined;
    const pool = scored.slice(0, request.limit * 3).map((hit) => ({
      ...hit,
      vector: hashEmbed(byId.get(hit.id)!.content, MMR_HASH_DIMS),
    }));
    scored = mmrRerank(pool, { limit: request.limit, ...(lambda === undefined ? {} : { lambda }) });
  }
  const evidence = relevanceEvidence(legs, exact, fused, deps.embedder?.model, conceptCoverage);
  const hits = scored.slice(0, request.limit).map((hit, i) =>
    toRankedHit(hit, byId.get(hit.id)!, {
      coverage: 0,
      lead: 0,
      bestCoverage: 0,
      ...evidence.get(hit.id),
      rank: i + 1,
    }),
  );

  const used = request.recordAccess === true ? hits.length : Number(request.recordAccess ?? 0);
  if (used > 0 && hits.length > 0) {
    // One bounded call; the store refuses heat to untrusted origins itself.
    await deps.store.recordAccess(hits.slice(0, Math.floor(used)).map((hit) => hit.memory.id));
  }
  const legReports: LegReport[] = reports.map((report) =>
    report.ran ? { ...report, weight: weightOf(report.name) } : report,
  );
  return {
    hits,
    legs: legReports,
    candidates: fused.length,
    fusion: tuning.fusion,
    rerank: rerank.report,
    mmr: useMmr,
  };
}

async function exactScores(
  deps: RetrieveDeps,
  legs: readonly LegHits[],
  pool: readonly MemoryId[],
  queryVectors: ReadonlyMap<'vector' | 'words', Float32Array>,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for (const [name, embedder] of [
    ['vector', deps.embedder],
    ['words', deps.wordEmbedder],
  ] as const) {
    const leg = legs.find((l) => l.name === name);
    if (embedder === undefined || leg === undefined) continue;
    const have = new Set(leg.hits.map((h) => h.id));
    const missing = pool.filter((id) => !have.has(id));
    if (missing.length === 0) continue;
    const q = queryVectors.get(name);
    if (q === undefined) continue;
    const vectors = await deps.store.getVectors(missing, embedder.model);
    out.set(name, new Map([...vectors].map(([id, v]) => [id, cosineSimilarity(q, v)])));
  }
  return out;
}

function legWeight(
  name: LegName | 'rerank',
  tuning: RecallTuning,
  hasCode: boolean,
  model: string | undefined,
): number {
  if (tuning.fusion === 'rrf') return rrfWeight(name, hasCode, model);
  switch (name) {
    case 'lexical':
      return tuning.weights.lexical;
    case 'identifier':
      return hasCode ? tuning.weights.identifierCode : tuning.weights.identifierPlain;
    case 'vector':
      return model === undefined ? 0 : (tuning.weights.vector ?? scoreVectorWeight(model));
    case 'words':
      return tuning.weights.words;
    case 'concept':
      return tuning.weights.concept;
    case 'rerank':
      return tuning.weights.rerank;
  }
}

function rrfWeight(name: LegName | 'rerank', hasCode: boolean, model: string | undefined): number {
  switch (name) {
    case 'lexical':
      return LEG_WEIGHTS.lexical;
    case 'identifier':
      return hasCode ? LEG_WEIGHTS.identifierCode : LEG_WEIGHTS.identifierPlain;
    case 'vector':
      return model === undefined ? 0 : vectorLegWeight(model);
    case 'words':
      return LEG_WEIGHTS.words;
    case 'concept':
      return LEG_WEIGHTS.concept;
    case 'rerank':
      return RERANK_WEIGHT;
  }
}

async function rerankStep(
  reranker: Reranker | undefined,
  query: string,
  scored: readonly ScoredHit[],
  byId: ReadonlyMap<MemoryId, Memory>,
  legs: readonly LegHits[],
): Promise<{ leg?: LegHits; report: RetrieveReport['rerank'] }> {
  if (reranker === undefined) {
    return { report: { ran: false, skipped: 'no reranker model directory', window: 0 } };
  }
  const window = scored.slice(0, RERANK_WINDOW);
  if (window.length < 2 || legs.every((leg) => leg.hits.length === 0)) {
    return {
      report: { ran: false, model: reranker.model, skipped: 'fewer than 2 candidates', window: 0 },
    };
  }
  const scores = await reranker.score(
    query,
    window.map((hit) => byId.get(hit.id)!.content),
  );
  const hits = window
    .map((hit, i) => ({ id: hit.id, score: scores[i] ?? -Infinity, at: i }))
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .map(({ id, score }) => ({ id, score: Number.isFinite(score) ? score : -1e9 }));
  return {
    leg: { name: 'rerank' as const, hits },
    report: { ran: true, model: reranker.model, window: window.length },
  };
}

function toRankedHit(hit: ScoredHit, memory: Memory, found: RelevanceEvidence): RankedHit {
  return {
    memory,
    score: hit.score,
    ranks: { ...hit.ranks },
    trustBand: bandOfOrigin(memory.origin),
    quarantined: memory.quarantine === 'pending',
    fusedScore: hit.fusedScore,
    factors: hit.factors,
    heat: hit.heat,
    contributions: hit.contributions,
    relevance: calibratedRelevance(found),
    evidence: found,
  };
}

function inScope(memory: Memory, scope: Scope): boolean {
  if (memory.visibility === 'global') return scope.includeGlobal || scope.projectKey === null;
  return scope.projectKey !== null && memory.projectKey === scope.projectKey;
}
