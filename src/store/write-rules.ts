/**
 * The write rules every backend applies before a write takes its lock: input validation and
 * normalisation, the fail-closed review default, the provenance fields of schema v2, vector shape, and
 * the checks an exported record must pass before import. Shared so that both adapters refuse exactly the
 * same inputs with the same messages, and a record exported from one imports into the other.
 */
import { type AnchorSetInput, assertAnchorCheck, assertAnchorSet } from '../core/anchors/anchor.js';
import { MemoryError } from '../core/errors.js';
import {
  GATE_REASONS,
  type GateReason,
  isMemoryId,
  type Memory,
  type MemoryId,
  type MemoryVector,
  type NewMemory,
  normaliseContent,
  normaliseTags,
  QUARANTINE_STATES,
  type QuarantineState,
  validateNewMemory,
  validSourceUrl,
} from '../core/memory.js';
import { parseOriginClass, TRUST_BANDS, trustBand } from '../core/origin/origin-class.js';
import { defaultTeamVisible, requiresReview } from '../core/privileges/privileges.js';
import { contentHash } from './content-hash.js';
import type { ExportedMemory, ProvenanceMend, RememberOptions } from './store.js';

/** Upper bound on dimensions; no embedding model we target needs more. */
export const MAX_VECTOR_DIMS = 8192;

/** recordAccess touches at most this many ids per statement. */
export const ACCESS_BATCH = 500;

/** The identity a store stamps on the memories it writes: the writing process's user and host. */
export interface Author {
  user: string;
  host: string;
}

/** Throws INVALID_INPUT unless `author` is undefined or a user and host of 1–256 characters. */
export function assertAuthor(author: Author | undefined): void {
  if (author === undefined) return;
  for (const part of [author.user, author.host]) {
    if (typeof part !== 'string' || part.trim().length === 0 || part.length > 256) {
      throw new MemoryError(
        'INVALID_INPUT',
        'An author needs a user and a host name of 1–256 characters.',
      );
    }
  }
}

/** A validated writer input, ready to be stored. */
export interface PreparedMemory {
  fields: Required<NewMemory>;
  hash: string;
  vector: MemoryVector | undefined;
  anchors: AnchorSetInput | undefined;
  /** The captured event's time (`RememberOptions.capturedAt`), validated ISO-8601; undefined: none. */
  capturedAt?: string | undefined;
}

/** Validates an anchor set and its seed checks outside the transaction. */
export function prepareAnchorSet(set: AnchorSetInput, memoryId = ''): AnchorSetInput {
  assertAnchorSet(set);
  for (const check of set.checks ?? []) assertAnchorCheck({ ...check, memoryId });
  return set;
}

/**
 * The review state an origin gets when the writer did not choose one: 'pending' exactly where
 * `requiresReview` holds. The v2 migration backfills existing rows with the same rule, and import of a
 * v1-era export uses it too.
 */
export function defaultQuarantine(origin: string): QuarantineState {
  return requiresReview(parseOriginClass(origin)) ? 'pending' : 'none';
}

export function isQuarantineState(value: unknown): value is QuarantineState {
  return typeof value === 'string' && (QUARANTINE_STATES as readonly string[]).includes(value);
}

function isGateReason(value: unknown): value is GateReason {
  return typeof value === 'string' && (GATE_REASONS as readonly string[]).includes(value);
}

// Threat model principle 6: untrusted origins earn no heat from being used.
export function earnsHeat(origin: string): boolean {
  return trustBand(parseOriginClass(origin)) !== 'untrusted';
}

/** Throws `fail(why)` unless the v2 fields hold values the schema accepts. */
export function assertWriteFields(
  fields: {
    tainted: unknown;
    quarantine: unknown;
    redactions: unknown;
    gateReason: unknown;
    trustBand?: unknown;
  },
  fail: (why: string) => Error,
): void {
  if (typeof fields.tainted !== 'boolean') throw fail('tainted must be true or false');
  if (!isQuarantineState(fields.quarantine)) {
    throw fail(`quarantine must be one of ${QUARANTINE_STATES.join(', ')}`);
  }
  if (!Number.isSafeInteger(fields.redactions) || (fields.redactions as number) < 0) {
    throw fail('redactions must be a count (an integer >= 0)');
  }
  if (!isGateReason(fields.gateReason)) {
    throw fail(`gateReason must be one of ${GATE_REASONS.join(', ')}`);
  }
  if ('trustBand' in fields && !(TRUST_BANDS as readonly unknown[]).includes(fields.trustBand)) {
    throw fail(`trustBand must be one of ${TRUST_BANDS.join(', ')}`);
  }
}

/** Throws INVALID_INPUT unless the vector has a model, 1..MAX dims, finite values and a direction. */
export function assertValidVector(vector: MemoryVector): void {
  if (typeof vector.model !== 'string' || vector.model.trim().length === 0) {
    throw new MemoryError('INVALID_INPUT', 'A vector needs the id of the model that produced it.');
  }
  const { values } = vector;
  if (!(values instanceof Float32Array) || values.length === 0 || values.length > MAX_VECTOR_DIMS) {
    throw new MemoryError(
      'INVALID_INPUT',
      `A vector must be a Float32Array of 1..${MAX_VECTOR_DIMS} values.`,
    );
  }
  if (!values.every((v) => Number.isFinite(v)) || !values.some((v) => v !== 0)) {
    throw new MemoryError(
      'INVALID_INPUT',
      'A vector must have finite values and at least one non-zero value (cosine needs a direction).',
    );
  }
}

/** Little-endian float32 bytes with -0 stored as +0 (JSON cannot carry -0: export → import is the identity). */
export function vectorBytes(values: Float32Array): Uint8Array {
  const canonical = values.map((v) => (v === 0 ? 0 : v));
  return new Uint8Array(canonical.buffer, canonical.byteOffset, canonical.byteLength);
}

/** The float32 values of `vectorBytes` output. */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  // Copy: driver buffers need not be 4-byte aligned for a Float32Array view.
  return new Float32Array(Uint8Array.from(bytes).buffer);
}

/** Validates outside the transaction so bad input never takes the write lock. */
export function prepareMemory(input: NewMemory, options: RememberOptions = {}): PreparedMemory {
  const { vector, anchors, capturedAt } = options;
  const fields = validateNewMemory(input);
  // Fail closed: a writer that did not decide the review state of an origin that requires review gets
  // 'pending', the value the v2 migration gives such rows, instead of validateNewMemory's 'none'.
  if (input.quarantine === undefined) fields.quarantine = defaultQuarantine(fields.origin);
  if (input.teamVisible === undefined) {
    fields.teamVisible = defaultTeamVisible(parseOriginClass(fields.origin), fields.visibility);
  }
  assertWriteFields(
    fields,
    (why) => new MemoryError('INVALID_INPUT', `Cannot store the memory: ${why}.`),
  );
  if (vector !== undefined) assertValidVector(vector);
  if (anchors !== undefined) prepareAnchorSet(anchors);
  return {
    fields,
    hash: contentHash(fields.content),
    vector,
    anchors,
    capturedAt: capturedAt === undefined ? undefined : isoTime(capturedAt, 'capturedAt'),
  };
}

/** `value` as canonical ISO-8601 UTC; INVALID_INPUT naming `what` when it is not a time. */
export function isoTime(value: unknown, what: string): string {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${what} must be an ISO-8601 time, such as 2026-08-01T10:00:00Z.`,
    );
  }
  return new Date(ms).toISOString();
}

/** The earlier of two ISO-8601 times (a captured time never dates a memory after its write). */
export function earlierIso(a: string, b: string | undefined): string {
  return b !== undefined && Date.parse(b) < Date.parse(a) ? b : a;
}

/**
 * What a {@link ProvenanceMend} changes on a memory: only what was missing (see the port). Validates the
 * values; returns the new values of the changed fields.
 */
export function planMend(
  current: Pick<Memory, 'sourceUrl' | 'originTool' | 'createdAt'>,
  mend: ProvenanceMend,
): Partial<Pick<Memory, 'sourceUrl' | 'originTool' | 'createdAt'>> {
  const out: Partial<Pick<Memory, 'sourceUrl' | 'originTool' | 'createdAt'>> = {};
  const url = validSourceUrl(mend.sourceUrl ?? null);
  if (url !== null && current.sourceUrl === null) out.sourceUrl = url;
  const tool = mend.originTool ?? null;
  if (tool !== null) {
    if (typeof tool !== 'string' || tool.trim().length === 0 || tool.length > 128) {
      throw new MemoryError('INVALID_INPUT', 'A tool name must be 1–128 characters.');
    }
    if (current.originTool === null) out.originTool = tool;
  }
  if (mend.createdAt !== undefined) {
    const at = isoTime(mend.createdAt, 'createdAt');
    if (Date.parse(at) < Date.parse(current.createdAt)) out.createdAt = at;
  }
  return out;
}

/** Checks an exported record before it takes the write lock; every rule of a normal write applies. */
export function assertImportable(record: ExportedMemory): void {
  const invalid = (why: string): MemoryError =>
    new MemoryError('INVALID_INPUT', `Cannot import memory ${String(record.id)}: ${why}.`);
  if (typeof record.id !== 'string' || !isMemoryId(record.id))
    throw invalid('its id is not a ULID');
  if (normaliseContent(record.content) !== record.content)
    throw invalid('its content is not normalised');
  if (contentHash(record.content) !== record.contentHash)
    throw invalid('its content hash does not match');
  const tags = normaliseTags(record.tags);
  if (JSON.stringify(tags) !== JSON.stringify(record.tags))
    throw invalid('its tags are not normalised');
  const fields = validateNewMemory(record);
  if (fields.projectKey !== record.projectKey || fields.origin !== record.origin) {
    throw invalid('its project key or origin is not normalised');
  }
  assertWriteFields(record, (why) => invalid(why));
  if (record.trustBand !== trustBand(parseOriginClass(record.origin))) {
    throw invalid(
      `its trustBand "${String(record.trustBand)}" is not the band of origin "${record.origin}"`,
    );
  }
  for (const time of [record.createdAt, record.updatedAt, record.lastAccessedAt]) {
    if (time !== null && (typeof time !== 'string' || Number.isNaN(Date.parse(time)))) {
      throw invalid('a timestamp is not ISO-8601');
    }
  }
  if (typeof record.teamVisible !== 'boolean') throw invalid('teamVisible must be true or false');
  for (const author of [record.authorUser, record.authorHost]) {
    if (
      author !== null &&
      (typeof author !== 'string' || author.length === 0 || author.length > 256)
    ) {
      throw invalid('an author must be null or a name of 1–256 characters');
    }
  }
  if (!Number.isSafeInteger(record.accessCount) || record.accessCount < 0) {
    throw invalid('accessCount is not a count');
  }
  if ((record.vector?.model ?? null) !== record.embeddingModel) {
    throw invalid('embeddingModel does not match its vector');
  }
  if (record.vector !== null) {
    assertValidVector({
      model: record.vector.model,
      values: Float32Array.from(record.vector.values),
    });
    if (record.vector.dims !== record.vector.values.length)
      throw invalid('vector dims do not match');
  }
  // An export written before anchors existed has none: the memory imports as pending.
  if (record.anchors !== null && record.anchors !== undefined) {
    if (Number.isNaN(Date.parse(record.anchors.resolvedAt))) {
      throw invalid('its anchors have no ISO-8601 resolution time');
    }
    prepareAnchorSet(record.anchors);
  }
}

/** Checks a review decision before it takes the write lock. */
export function assertReview(state: QuarantineState, actor: string): void {
  if (!isQuarantineState(state)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Unknown review state "${String(state)}". Use one of: ${QUARANTINE_STATES.join(', ')}.`,
    );
  }
  if (typeof actor !== 'string' || actor.trim().length === 0) {
    throw new MemoryError('INVALID_INPUT', 'A review decision needs the actor who made it.');
  }
}

/** Throws INVALID_INPUT unless a merge's detail is a JSON object. */
export function assertMergeDetail(detail: unknown): void {
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) {
    throw new MemoryError('INVALID_INPUT', 'Merge detail must be a JSON object.');
  }
}

/** A cluster record names at least one memory and carries a JSON object. */
export function assertClusterRecord(ids: readonly unknown[], detail: unknown): void {
  if (!Array.isArray(ids) || ids.length === 0) {
    throw new MemoryError('INVALID_INPUT', 'A cluster needs at least one member id.');
  }
  for (const id of ids as unknown[]) {
    if (typeof id !== 'string' || !isMemoryId(id)) {
      throw new MemoryError('INVALID_INPUT', 'A cluster member id must be a memory id.');
    }
  }
  assertMergeDetail(detail);
}

/** The row of a new memory: the writer's validated fields plus what the store derives. */
export function newMemoryRow(
  prepared: PreparedMemory,
  id: MemoryId,
  at: string,
  supersedes: MemoryId | null,
  author: Author | undefined,
): Memory {
  const { fields } = prepared;
  return {
    id,
    content: fields.content,
    projectKey: fields.projectKey,
    visibility: fields.visibility,
    kind: fields.kind,
    tags: fields.tags as string[],
    origin: fields.origin,
    originTool: fields.originTool,
    sessionId: fields.sessionId,
    createdAt: earlierIso(at, prepared.capturedAt),
    updatedAt: earlierIso(at, prepared.capturedAt),
    lastAccessedAt: null,
    accessCount: 0,
    heatBase: fields.heatBase,
    pinned: fields.pinned,
    supersedes,
    supersededBy: null,
    contentHash: prepared.hash,
    embeddingModel: null,
    trustBand: trustBand(parseOriginClass(fields.origin)),
    tainted: fields.tainted,
    quarantine: fields.quarantine,
    redactions: fields.redactions,
    gateReason: fields.gateReason,
    authorUser: author?.user ?? null,
    authorHost: author?.host ?? null,
    teamVisible: fields.teamVisible,
    sourceUrl: fields.sourceUrl,
    context: '',
  };
}

/** The audit detail of a new memory (`remember` or `supersede`). */
export function newMemoryAudit(memory: Memory, prepared: PreparedMemory): Record<string, unknown> {
  return {
    contentHash: memory.contentHash,
    projectKey: memory.projectKey,
    kind: memory.kind,
    origin: memory.origin,
    visibility: memory.visibility,
    supersedes: memory.supersedes,
    vectorModel: prepared.vector?.model ?? null,
    trustBand: memory.trustBand,
    tainted: memory.tainted,
    quarantine: memory.quarantine,
    redactions: memory.redactions,
    gateReason: memory.gateReason,
    anchors: prepared.anchors?.anchors.filter((a) => a.kind === 'file').length,
    teamVisible: memory.teamVisible,
    ...(memory.sourceUrl === null ? {} : { sourceUrl: memory.sourceUrl }),
    ...(prepared.capturedAt === undefined ? {} : { capturedAt: memory.createdAt }),
  };
}
