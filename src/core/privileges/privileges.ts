/**
 * Privileges by origin: one table, built from explicit allowlists, failing closed. A privilege is something
 * content could otherwise talk its way into — skipping the novelty gate, an importance boost, pinning,
 * global promotion, proactive injection. Each is granted only to the origins listed for it; an origin not
 * listed (including anything outside the vocabulary) gets nothing. Content cues matter only after the origin
 * has passed this table, and a `force` flag counts only when a person set it through a human channel.
 */
import type { CueKind } from '../cues/detect-cues.js';
import type { Channel } from '../origin/classify-origin.js';
import type { OriginClass } from '../origin/origin-class.js';
import { parseOriginClass, TRUST_ORDER } from '../origin/origin-class.js';

/** The privileges the write and read paths ask about. */
export const PRIVILEGES = [
  'noveltyBypass',
  'importanceBoost',
  'pin',
  'promoteGlobal',
  'injectProactively',
  'labelKind',
] as const;
/** One privilege. */
export type Privilege = (typeof PRIVILEGES)[number];

/** What an origin may do. `injectProactively` covers SessionStart and prompt-time recall alike. */
export type Privileges = Readonly<Record<Privilege, boolean>>;

/**
 * The allowlists. Rationale per row:
 * - `noveltyBypass` (cue-gated): a person; the agent's own untainted `remember`, whose call is itself the
 *   deliberate act; and `local_edit`, where an error fix or decision written into the user's files is worth
 *   keeping even if it resembles an older memory. Bash, reads and everything untrusted are out: their text is
 *   someone else's and could be shaped to look like an error or a decision.
 * - `importanceBoost`, `pin`, `promoteGlobal`: a person only. These are durable, cross-project effects;
 *   no model-authored text should be able to grant them to itself.
 * - `injectProactively`: a person and the untainted agent. `local_edit` is recallable on request but not
 *   pushed into sessions: its text is model-authored and may copy whatever the model read, and the edit
 *   already lives in the file. Local reads and command output are third-party text.
 * - `labelKind`: a person only. A leading `Decision:` sets the kind (core/kind-prefix.ts), and decisions
 *   reach the session-start pack; text from anyone else must not promote itself by how it begins.
 */
const ALLOWLISTS: Readonly<Record<Privilege, readonly OriginClass[]>> = {
  noveltyBypass: ['user', 'agent', 'local_edit'],
  importanceBoost: ['user'],
  pin: ['user'],
  promoteGlobal: ['user'],
  injectProactively: ['user', 'agent'],
  labelKind: ['user'],
};

/**
 * Local origins a deployment may opt into proactive injection (`proactiveLocal`). Untrusted-band origins
 * are absent on purpose: no setting makes network, unknown or tainted text injectable.
 */
const PROACTIVE_LOCAL_OPT_IN: readonly OriginClass[] = ['local_edit', 'local_read', 'local_exec'];

/** Settings that may widen, never narrow below the defaults, one allowlist. */
export interface PrivilegeOptions {
  /** Also inject local edits, reads and command output proactively. Default false. */
  readonly proactiveLocal?: boolean;
}

/** The privileges of an origin. Anything outside the vocabulary is treated as `unknown`: no privileges. */
export function privilegesFor(origin: OriginClass, options: PrivilegeOptions = {}): Privileges {
  const known = parseOriginClass(origin);
  const grants = (privilege: Privilege): boolean =>
    ALLOWLISTS[privilege].includes(known) ||
    (privilege === 'injectProactively' &&
      options.proactiveLocal === true &&
      PROACTIVE_LOCAL_OPT_IN.includes(known));
  return {
    noveltyBypass: grants('noveltyBypass'),
    importanceBoost: grants('importanceBoost'),
    pin: grants('pin'),
    promoteGlobal: grants('promoteGlobal'),
    injectProactively: grants('injectProactively'),
    labelKind: grants('labelKind'),
  };
}

/** The whole table, one row per origin in trust order (for docs, the explain view and tests). */
export function privilegeTable(
  options: PrivilegeOptions = {},
): readonly { origin: OriginClass; privileges: Privileges }[] {
  return TRUST_ORDER.map((origin) => ({ origin, privileges: privilegesFor(origin, options) }));
}

/**
 * Whether an origin is held for a person's review before it can gain any standing (the quarantine):
 * network captures, tainted `remember`s and anything unknown.
 */
export function requiresReview(origin: OriginClass): boolean {
  const known = parseOriginClass(origin);
  return known === 'network' || known === 'agent_tainted' || known === 'unknown';
}

const HUMAN_CHANNELS: readonly Channel[] = ['cli', 'web'];

/**
 * Whether a `force` / "deliberate" flag is honoured on this channel: only the CLI and the web UI, where a
 * person sets it. Through MCP arguments or a hook payload it is a claim: ignore it and log it.
 */
export function honoursForceFlag(channel: Channel): boolean {
  return HUMAN_CHANNELS.includes(channel);
}

/** Why the novelty gate was or was not skipped. */
export type BypassReason = 'forced_by_person' | 'cue' | 'no_cue' | 'origin_not_allowlisted';

/** Input to {@link decideBypass}. */
export interface BypassInput {
  readonly origin: OriginClass;
  /** Cues detected in the content, or `NO_CUES`. Ignored unless the origin is allowlisted. */
  readonly cues: readonly CueKind[];
  /** Present when the request carried a `force`/"deliberate" flag; the channel it arrived through. */
  readonly force?: { readonly channel: Channel };
}

/** The decision, with the cues that counted and any claims the caller must log as ignored. */
export interface BypassDecision {
  readonly bypass: boolean;
  readonly reason: BypassReason;
  /** Cues that justified the bypass; empty unless `reason` is `cue`. */
  readonly cues: readonly CueKind[];
  /** Flags that arrived through a non-human channel and were ignored. Log each. */
  readonly ignoredClaims: readonly 'force'[];
}

/**
 * Whether the novelty gate may be skipped for this write. A person's `force` from a human channel always
 * wins; otherwise the origin must be on the `noveltyBypass` allowlist *and* a cue must be present. For an
 * origin outside the allowlist the cues are never read, so the outcome cannot depend on content.
 */
export function decideBypass(input: BypassInput): BypassDecision {
  const forceHonoured = input.force !== undefined && honoursForceFlag(input.force.channel);
  const ignoredClaims: readonly 'force'[] =
    input.force !== undefined && !forceHonoured ? ['force'] : [];
  if (forceHonoured) return { bypass: true, reason: 'forced_by_person', cues: [], ignoredClaims };
  if (!privilegesFor(input.origin).noveltyBypass) {
    return { bypass: false, reason: 'origin_not_allowlisted', cues: [], ignoredClaims };
  }
  const cues = [...new Set(input.cues)];
  return cues.length > 0
    ? { bypass: true, reason: 'cue', cues, ignoredClaims }
    : { bypass: false, reason: 'no_cue', cues: [], ignoredClaims };
}

/**
 * The actors that may re-verify a memory (confirm it still holds and re-anchor it to the code as it is):
 * a person, and the agent in an untainted session (it acts within the user's turn, the same standing
 * that makes its `remember` injectable). A tainted session may re-verify only what is no more trusted
 * than itself: otherwise a web page could make an outdated user decision look current again. Any other
 * actor (unknown, a capture channel) may not. Fails closed.
 */
export function mayReverify(actor: OriginClass, memory: OriginClass): boolean {
  const who = parseOriginClass(actor);
  if (who === 'user' || who === 'agent') return true;
  if (who !== 'agent_tainted') return false;
  return TRUST_ORDER.indexOf(parseOriginClass(memory)) >= TRUST_ORDER.indexOf(who);
}

/**
 * Whether a new memory is shared with the other authors of a team store when its writer did not say:
 * project memories of origins that need no review are (the team's knowledge of the repository); global
 * ones never are (a person's cross-project preferences stay theirs until a person shares them), and
 * nothing held for review reaches anyone else before a person approves it.
 */
export function defaultTeamVisible(origin: OriginClass, visibility: 'project' | 'global'): boolean {
  return visibility === 'project' && !requiresReview(origin);
}
