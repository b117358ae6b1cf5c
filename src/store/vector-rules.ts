/**
 * Which rule built a store's sentence vectors. A sentence model's memory vector is not the model's
 * vector of the memory's text alone: it mixes in the context around the memory by a rule
 * (retrieval/embed-pending.ts), and vectors of two rules are not comparable in one cosine ranking. The
 * model id keeps naming the model (config, fusion weights and caches key on it); the rule is recorded
 * once per model in `model_state`, under `vector-rule:<model>`, for every vector of that model in the
 * store. A model without a record holds vectors of a rule from before rules were recorded.
 *
 * Backend-agnostic (the MemoryStore port only), so the copy between stores can carry the record.
 */
import type { MemoryStore } from './store.js';

/** The rule of vectors whose rule nobody knows (mixed in by an import): never anyone's current rule. */
export const UNKNOWN_VECTOR_RULE = 'unknown';

export interface VectorRuleRecord {
  /** The rule every stored vector of the model was built by. */
  rule: string;
  /**
   * Vectors of an earlier rule dropped when this rule was adopted and not all rebuilt yet (0 once
   * embedding has caught up): what `mnemo doctor` reports until then.
   */
  dropped: number;
  /** The rule those dropped vectors were built by (null: unrecorded, from before rules were recorded). */
  droppedRule: string | null;
}

/** The `model_state` key of `model`'s record. */
export function vectorRuleKey(model: string): string {
  return `vector-rule:${model}`;
}

export async function readVectorRule(
  store: MemoryStore,
  model: string,
): Promise<VectorRuleRecord | undefined> {
  const state = await store.getModelState(vectorRuleKey(model));
  if (state === undefined || typeof state['rule'] !== 'string') return undefined;
  return {
    rule: state['rule'],
    dropped: typeof state['dropped'] === 'number' ? state['dropped'] : 0,
    droppedRule: typeof state['droppedRule'] === 'string' ? state['droppedRule'] : null,
  };
}

export async function writeVectorRule(
  store: MemoryStore,
  model: string,
  record: VectorRuleRecord,
): Promise<void> {
  await store.setModelState(vectorRuleKey(model), { ...record });
}

/**
 * Keeps `target`'s records true when vectors arrive from `source` (a copy between stores), decided
 * before anything is copied so a resumed copy decides the same way. Per sentence model of the source:
 * the same rule on both sides stays; a target without vectors of that model takes the source's record;
 * otherwise the target's vectors of that model become of unknown rule (its recorded rule no longer
 * holds for all of them), so the next process that embeds drops and rebuilds them all.
 */
export async function carryVectorRules(source: MemoryStore, target: MemoryStore): Promise<void> {
  const [from, to] = await Promise.all([source.stats(), target.stats()]);
  for (const model of Object.keys(from.vectors)) {
    const [ours, theirs] = await Promise.all([
      readVectorRule(source, model),
      readVectorRule(target, model),
    ]);
    if (ours !== undefined && theirs?.rule === ours.rule) continue;
    if ((to.vectors[model] ?? 0) === 0 && ours !== undefined) {
      await writeVectorRule(target, model, { rule: ours.rule, dropped: 0, droppedRule: null });
    } else if (theirs !== undefined) {
      await markVectorRuleUnknown(target, model);
    }
  }
}

/**
 * Vectors of `model` whose rule is not known arrived in `store` (an import of an export, which does not
 * carry rules): when the store had recorded a rule, that record no longer holds for all its vectors.
 */
export async function markVectorRuleUnknown(store: MemoryStore, model: string): Promise<void> {
  const record = await readVectorRule(store, model);
  if (record === undefined || record.rule === UNKNOWN_VECTOR_RULE) return;
  await writeVectorRule(store, model, { ...record, rule: UNKNOWN_VECTOR_RULE });
}
