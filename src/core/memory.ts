/**
 * The memory model: what one durable memory is, the closed vocabularies that describe it, and the input
 * validation every writer goes through. Pure: no I/O, no clock, no randomness (time and ids arrive as
 * parameters). Nothing here may import outside core/.
 */
import { MemoryError } from './errors.js';
import { parseOriginClass } from './origin/origin-class.js';
import { sourceUrlOf } from './origin/source-url.js';
import { defaultTeamVisible } from './privileges/privileges.js';

export const MEMORY_KINDS = [
  'note',
  'decision',
  'error',
  'fix',
  'checkpoint',
  'capture',
  'preference',
  'fact',
] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export const VISIBILITIES = ['project', 'global'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Origin of a memory. The closed vocabulary and its trust order arrive with the write path; until
 * classified, a memory's origin is `unknown`, which grants nothing. */
export type Origin = string;
export const UNKNOWN_ORIGIN = 'unknown';

/**
 * Review state of a memory. `pending` memories (network captures, tainted agent writes, unknown origins)
 * are searchable on explicit request but never injected proactively until a person approves them through a
 * human channel (CLI, web UI). `rejected` ones are kept for audit and never shown in recall.
 */
export const QUARANTINE_STATES = ['none', 'pending', 'approved', 'rejected'] as const;
export type QuarantineState = (typeof QUARANTINE_STATES)[number];

/**
 * Why the write gate stored a memory. `novel`: passed the novelty gate; `bypass_cue`: an allowlisted origin
 * whose content carried an error/decision cue skipped it; `forced`: a person forced it through a human
 * channel; `imported`: arrived through import; `legacy`: written before the gate existed.
 */
export const GATE_REASONS = ['novel', 'bypass_cue', 'forced', 'imported', 'legacy'] as const;
export type GateReason = (typeof GATE_REASONS)[number];

/** Maximum content length, in UTF-16 code units after trimming. Larger notes belong in files. */
export const MAX_CONTENT_LENGTH = 32_768;
export const MAX_TAGS = 32;
export const MAX_TAG_LENGTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A memory id is a ULID: 26 Crockford base-32 characters, lexicographically sortable by creation time. */
export type MemoryId = string;
const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function isMemoryId(value: string): boolean {
  return ULID_PATTERN.test(value);
}

export function assertMemoryId(value: string): MemoryId {
  const id = value.trim().toUpperCase();
  if (!isMemoryId(id)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `"${truncateForMessage(value)}" is not a memory id. Ids are 26-character ULIDs; run \`mnemo list\` to see them.`,
    );
  }
  return id;
}

export interface Memory {
  id: MemoryId;
  content: string;
  projectKey: string;
  visibility: Visibility;
  kind: MemoryKind;
  tags: string[];
  origin: Origin;
  originTool: string | null;
  sessionId: string | null;
  /** ISO-8601 UTC timestamps. */
  createdAt: string;
  updatedAt: string;
  lastAccessedAt: string | null;
  accessCount: number;
  /** Heat at `updatedAt`/`lastAccessedAt`; decays lazily at read time, never rewritten in the background. */
  heatBase: number;
  pinned: boolean;
  supersedes: MemoryId | null;
  supersededBy: MemoryId | null;
  /** sha256 hex of the normalised content; unique per project. */
  contentHash: string;
  /** Model id of the stored vector, or null when the memory has not been embedded yet. */
  embeddingModel: string | null;
  /** Trust band of `origin` at write time (high, medium, low, untrusted); derived, stored for audit. */
  trustBand: string;
  /** Written by a model while its session was tainted by untrusted content. */
  tainted: boolean;
  quarantine: QuarantineState;
  /** How many secrets were redacted from the text before it was stored. */
  redactions: number;
  /** The write gate's reason for storing this memory. */
  gateReason: GateReason;
  /** Who wrote it: the user name and host of the writing process; null when written before schema v5. */
  authorUser: string | null;
  authorHost: string | null;
  /**
   * Seen by other authors sharing the store (a team). One meaning, independent of `visibility`, which
   * says which projects see it: a private memory reaches its own author only, a team one everyone
   * whose session is in scope. Rows without an author keep the reach they had before authorship.
   */
  teamVisible: boolean;
  /**
   * The http(s) page a captured tool event read (`scheme://host/path`, from the tool input in the hook
   * envelope, never from content; see core/origin/source-url.ts), or null.
   */
  sourceUrl: string | null;
  /**
   * The text around the memory when it was captured (its session neighbours, core/text/capture-context.ts),
   * derived by the store and indexed as a lower-weighted lexical field; '' when there is none. Never
   * rendered into a session.
   */
  context: string;
}

/** What a writer supplies. Everything else is derived by the store. */
export interface NewMemory {
  content: string;
  projectKey: string;
  visibility?: Visibility;
  kind?: MemoryKind;
  tags?: readonly string[];
  origin?: Origin;
  originTool?: string | null;
  sessionId?: string | null;
  pinned?: boolean;
  heatBase?: number;
  tainted?: boolean;
  quarantine?: QuarantineState;
  redactions?: number;
  gateReason?: GateReason;
  /** Omitted: the default for the origin and visibility (`defaultTeamVisible`). */
  teamVisible?: boolean;
  sourceUrl?: string | null;
}

export interface MemoryVector {
  model: string;
  values: Float32Array;
}

/**
 * Validates and normalises writer input. Throws INVALID_INPUT with an actionable message; never truncates
 * silently (a memory is either stored as given or refused).
 */
export function validateNewMemory(input: NewMemory): Required<NewMemory> {
  const content = normaliseContent(input.content);
  const projectKey = input.projectKey.trim();
  if (projectKey.length === 0) {
    throw new MemoryError(
      'INVALID_INPUT',
      'A memory needs a project key. Pass --project <dir> or run mnemo inside a project.',
    );
  }
  const kind = input.kind ?? 'note';
  if (!MEMORY_KINDS.includes(kind)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Unknown kind "${truncateForMessage(String(kind))}". Use one of: ${MEMORY_KINDS.join(', ')}.`,
    );
  }
  const visibility = input.visibility ?? 'project';
  if (!VISIBILITIES.includes(visibility)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Unknown visibility. Use one of: ${VISIBILITIES.join(', ')}.`,
    );
  }
  const origin = (input.origin ?? UNKNOWN_ORIGIN).trim() || UNKNOWN_ORIGIN;
  const heatBase = input.heatBase ?? 0;
  if (!Number.isFinite(heatBase) || heatBase < 0) {
    throw new MemoryError('INVALID_INPUT', 'heatBase must be a finite number >= 0.');
  }
  return {
    content,
    projectKey,
    visibility,
    kind,
    tags: normaliseTags(input.tags ?? []),
    origin,
    originTool: input.originTool ?? null,
    sessionId: input.sessionId ?? null,
    pinned: input.pinned ?? false,
    heatBase,
    tainted: input.tainted ?? false,
    quarantine: input.quarantine ?? 'none',
    redactions: input.redactions ?? 0,
    gateReason: input.gateReason ?? 'novel',
    // Decided here, not left to the store: writers pass this function's output on as explicit fields.
    teamVisible: input.teamVisible ?? defaultTeamVisible(parseOriginClass(origin), visibility),
    sourceUrl: validSourceUrl(input.sourceUrl ?? null),
  };
}

/** A source URL must already be in the normalised form `sourceUrlOf` gives; the store never rewrites one. */
export function validSourceUrl(url: string | null): string | null {
  if (url === null) return null;
  if (typeof url !== 'string' || sourceUrlOf(url) !== url) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Source URL "${truncateForMessage(String(url))}" is not a normalised http(s) address (scheme, host and path only).`,
    );
  }
  return url;
}

/**
 * Content rules shared by every writer: trimmed, non-empty, no NUL, no lone surrogates (they cannot be
 * encoded as UTF-8 and would be silently replaced on disk), bounded length. Line endings become LF so the
 * same note typed on two systems hashes the same.
 */
export function normaliseContent(raw: string): string {
  if (typeof raw !== 'string') {
    throw new MemoryError('INVALID_INPUT', 'Memory content must be text.');
  }
  if (raw.includes('\u0000')) {
    throw new MemoryError(
      'INVALID_INPUT',
      'Memory content contains a NUL byte. Remove binary data; store a path or description instead.',
    );
  }
  if (LONE_SURROGATE.test(raw)) {
    throw new MemoryError(
      'INVALID_INPUT',
      'Memory content is not valid Unicode (it has an unpaired surrogate). Re-encode the text as UTF-8.',
    );
  }
  const content = raw.replace(/\r\n?/g, '\n').trim();
  if (content.length === 0) {
    throw new MemoryError('INVALID_INPUT', 'Memory content is empty. Give the text to remember.');
  }
  if (content.length > MAX_CONTENT_LENGTH) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Memory content is ${content.length} characters; the limit is ${MAX_CONTENT_LENGTH}. ` +
        'Split it into smaller memories or store a summary with a file path.',
    );
  }
  return content;
}

export function normaliseTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase();
    if (tag.length === 0) continue;
    if (tag.length > MAX_TAG_LENGTH || /[\s,]/.test(tag) || tag.includes('\u0000')) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Tag "${truncateForMessage(raw)}" is invalid: tags are at most ${MAX_TAG_LENGTH} characters without spaces or commas.`,
      );
    }
    if (!out.includes(tag)) out.push(tag);
  }
  if (out.length > MAX_TAGS) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Too many tags (${out.length}); the limit is ${MAX_TAGS}.`,
    );
  }
  return out;
}

/**
 * The text that the content hash is computed over: whitespace runs collapsed, so re-captures that differ
 * only in spacing dedupe. Case is kept: `NODE_ENV` and `node_env` are different facts.
 */
export function hashableContent(content: string): string {
  return content.replace(/\s+/g, ' ').trim();
}

function truncateForMessage(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
