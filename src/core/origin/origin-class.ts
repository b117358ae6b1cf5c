/**
 * The closed origin vocabulary and the single trust order over it. Every other trust decision in mnemo
 * (privileges, taint, ranking bands, derived memories) is expressed in terms of this file, so a new class or
 * a reordering happens here once and nowhere else.
 */

/**
 * Every origin a memory can have, most trusted first. This array *is* the trust order: a class's index is
 * its rank, so the vocabulary and the order cannot drift apart.
 *
 * - `user`: a human channel (CLI, web UI, text the user typed into the prompt).
 * - `agent`: a model-invoked MCP `remember` in a session with no untrusted content since the last prompt.
 * - `local_edit`: Edit, Write, MultiEdit, NotebookEdit — model-authored text written into the user's files.
 * - `local_read`: Read, Grep, Glob, LS — third-party file content.
 * - `local_exec`: Bash and other command runners — output can carry network content (`curl`).
 * - `agent_tainted`: a model-invoked `remember` after network or unknown content entered the context.
 * - `network`: WebFetch, WebSearch and MCP tools the config declares as network.
 * - `unknown`: empty, unrecognised, undeclared MCP tools, sub-agent output. Grants nothing.
 */
export const TRUST_ORDER = [
  'user',
  'agent',
  'local_edit',
  'local_read',
  'local_exec',
  'agent_tainted',
  'network',
  'unknown',
] as const;

/** One class of the closed origin vocabulary. */
export type OriginClass = (typeof TRUST_ORDER)[number];

/** The vocabulary as a set-like list; same members as {@link TRUST_ORDER}, exported under its own name. */
export const ORIGIN_CLASSES: readonly OriginClass[] = TRUST_ORDER;

/** Coarse trust bands used by ranking (a bounded multiplicative factor) and by the explain view. */
export const TRUST_BANDS = ['high', 'medium', 'low', 'untrusted'] as const;
/** One coarse trust band. */
export type TrustBand = (typeof TRUST_BANDS)[number];

const BAND_OF: Readonly<Record<OriginClass, TrustBand>> = {
  user: 'high',
  agent: 'medium',
  local_edit: 'medium',
  local_read: 'low',
  local_exec: 'low',
  agent_tainted: 'untrusted',
  network: 'untrusted',
  unknown: 'untrusted',
};

/** True when `value` is a member of the origin vocabulary (use it on strings read from storage or JSON). */
export function isOriginClass(value: unknown): value is OriginClass {
  return typeof value === 'string' && (TRUST_ORDER as readonly string[]).includes(value);
}

/** Reads an origin from untyped data; anything outside the vocabulary becomes `unknown`, never a guess. */
export function parseOriginClass(value: unknown): OriginClass {
  return isOriginClass(value) ? value : 'unknown';
}

/** Rank in {@link TRUST_ORDER}: 0 is the most trusted. Values outside the vocabulary rank as `unknown`. */
export function trustRank(origin: OriginClass): number {
  return TRUST_ORDER.indexOf(parseOriginClass(origin));
}

/** True when `a` is strictly more trusted than `b`. */
export function isMoreTrusted(a: OriginClass, b: OriginClass): boolean {
  return trustRank(a) < trustRank(b);
}

/**
 * The origin of a derived memory (merge, summary, consolidation, promotion, backfill): the least trusted of
 * its sources (the Biba rule), so deriving can never raise trust. No sources means we cannot vouch for
 * anything: `unknown`.
 */
export function leastTrusted(origins: Iterable<OriginClass>): OriginClass {
  let worst = -1;
  for (const origin of origins) worst = Math.max(worst, trustRank(origin));
  return worst < 0 ? 'unknown' : (TRUST_ORDER[worst] ?? 'unknown');
}

/** The trust band of an origin. Values outside the vocabulary are `untrusted`. */
export function trustBand(origin: OriginClass): TrustBand {
  return BAND_OF[parseOriginClass(origin)];
}

/** Options for {@link isTaintSource}. */
export interface TaintOptions {
  /** Also treat third-party file reads and command output as taint (the `strict` setting). */
  strict: boolean;
}

const TAINT_DEFAULT: ReadonlySet<OriginClass> = new Set(['network', 'unknown', 'agent_tainted']);
const TAINT_STRICT: ReadonlySet<OriginClass> = new Set([
  ...TAINT_DEFAULT,
  'local_read',
  'local_exec',
]);

/**
 * Whether content of this origin entering the context taints the session, so that a later model-invoked
 * `remember` is classed `agent_tainted`. `agent_tainted` content counts too: it is network content one step
 * removed. Values outside the vocabulary taint (fail closed).
 */
export function isTaintSource(origin: OriginClass, options: TaintOptions): boolean {
  return (options.strict ? TAINT_STRICT : TAINT_DEFAULT).has(parseOriginClass(origin));
}
