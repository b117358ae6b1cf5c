/**
 * Steps of the write service that need no gate logic: sanitising every caller-supplied string before
 * anything else reads it, the flood budget count, and the reporter that turns a decision into an outcome,
 * a counter and one log line. None of them ever puts content into a note or a log field.
 */
import { isMemoryError } from '../core/errors.js';
import { withinFloodBudget } from '../core/gate/decide-gate.js';
import { MAX_CONTENT_LENGTH, type Memory, type NewMemory } from '../core/memory.js';
import { QUARANTINE_STATES } from '../core/memory.js';
import type { OriginReason } from '../core/origin/classify-origin.js';
import type { OriginClass } from '../core/origin/origin-class.js';
import { sourceUrlOf } from '../core/origin/source-url.js';
import { honoursForceFlag } from '../core/privileges/privileges.js';
import { sanitiseForStorage } from '../core/redact/redact-secrets.js';
import type { RejectReason, WriteDeps, WriteOutcome, WriteRequest } from './write-types.js';

/** Input longer than this is refused before any regex runs over it (a 5 MB payload costs nothing). */
export const MAX_RAW_CONTENT_CHARS = 4 * MAX_CONTENT_LENGTH;
const MAX_ORIGIN_TOOL_CHARS = 128;

/** The sanitised parts of a request, or why it cannot be written at all. */
export type SanitisedRequest =
  | {
      kind: 'ok';
      content: string;
      tags: string[];
      originTool: string | null;
      redactions: number;
      sourceUrl: string | null;
    }
  | { kind: 'reject'; reason: RejectReason; note: string };

/**
 * Strips invisible Unicode and redacts secrets from the content, the tags and the tool label. The result
 * is the only text that may reach the store, the index, an embedder or a log.
 */
export function sanitiseRequest(request: WriteRequest, notes: string[]): SanitisedRequest {
  const raw: unknown = request.content;
  if (typeof raw !== 'string') {
    return { kind: 'reject', reason: 'invalid_input', note: 'Memory content must be text.' };
  }
  if (raw.trim() === '') {
    return {
      kind: 'reject',
      reason: 'invalid_input',
      note: 'Memory content is empty. Give the text to remember.',
    };
  }
  if (raw.length > MAX_RAW_CONTENT_CHARS) {
    return {
      kind: 'reject',
      reason: 'invalid_input',
      note: `Memory content is ${raw.length} characters; the limit is ${MAX_CONTENT_LENGTH}. Split it or store a summary with a file path.`,
    };
  }
  const clean = sanitiseForStorage(raw);
  if (clean.text.trim() === '') {
    return {
      kind: 'reject',
      reason: 'empty_after_redaction',
      note: 'Nothing is left once invisible characters are removed.',
    };
  }
  if (clean.invisibleRemoved > 0) {
    notes.push(`${clean.invisibleRemoved} invisible characters removed`);
  }
  let redactions = clean.redactions;
  if (clean.redactions > 0) {
    notes.push(`${clean.redactions} secret(s) redacted (${clean.kinds.join(', ')})`);
  }
  const tags: string[] = [];
  for (const tag of request.tags ?? []) {
    if (typeof tag !== 'string') {
      return { kind: 'reject', reason: 'invalid_input', note: 'Tags must be text.' };
    }
    const cleanTag = sanitiseForStorage(tag);
    if (cleanTag.redactions > 0) {
      redactions += cleanTag.redactions;
      notes.push('a tag that held a secret was dropped');
      continue;
    }
    tags.push(cleanTag.text);
  }
  return {
    kind: 'ok',
    content: clean.text,
    tags,
    originTool: originToolOf(request),
    redactions,
    sourceUrl: sourceUrlOfRequest(request, notes),
  };
}

function sourceUrlOfRequest(request: WriteRequest, notes: string[]): string | null {
  const raw: unknown = request.sourceUrl;
  if (raw === undefined || raw === null) return null;
  const url = sourceUrlOf(raw);
  if (url === null) notes.push('a source address that is not a plain http(s) URL was dropped');
  return url;
}

/** The tool label: the envelope's tool name on the tool channel (a claim cannot rename it), else the edge's. */
function originToolOf(request: WriteRequest): string | null {
  const envelope = request.envelope as unknown as Record<string, unknown> | null | undefined;
  const label =
    envelope?.['channel'] === 'tool' && typeof envelope['toolName'] === 'string'
      ? envelope['toolName']
      : typeof request.originTool === 'string'
        ? request.originTool
        : typeof envelope?.['channel'] === 'string'
          ? envelope['channel']
          : null;
  if (label === null) return null;
  const clean = sanitiseForStorage(label).text.trim().slice(0, MAX_ORIGIN_TOOL_CHARS);
  return clean === '' ? null : clean;
}

/**
 * Counts writes of `origin` in the flood window: per session when the session is known, else per project
 * (an unidentified writer shares one budget rather than getting none). Undefined when the origin is
 * unlimited.
 */
export async function countRecentWrites(
  deps: WriteDeps,
  input: Required<NewMemory>,
  origin: OriginClass,
): Promise<{ allowed: boolean; count: number } | undefined> {
  const limit = deps.policy.floodLimit;
  if (limit.maxPerOrigin[origin] === undefined) return undefined;
  const since = new Date(deps.clock.now().getTime() - limit.windowMinutes * 60_000).toISOString();
  const count =
    input.sessionId !== null
      ? await deps.store.countSessionWrites(input.sessionId, origin, since)
      : await deps.store.countMemories({
          scope: { projectKey: input.projectKey, includeGlobal: false },
          origins: [origin],
          createdAfter: since,
          includeSuperseded: true,
          quarantine: QUARANTINE_STATES,
        });
  return { allowed: withinFloodBudget(origin, count, limit), count };
}

/** Collects notes and turns a decision into an outcome, a telemetry counter and one log line. */
export interface Reporter {
  /** The envelope's channel as received (`invalid` when malformed). */
  readonly channel: string;
  readonly notes: string[];
  /** Logs and counts caller claims that are ignored (claims, an unhonoured force, a tool-label claim). */
  claims(): Promise<void>;
  reject(reason: RejectReason, note: string): Promise<WriteOutcome>;
  merge(
    memory: Memory,
    reason: 'exact_duplicate' | 'near_duplicate',
    similarity?: number,
  ): Promise<WriteOutcome>;
  store(memory: Memory, reason: Memory['gateReason']): Promise<WriteOutcome>;
}

/** Builds the reporter for one request. */
export function createReporter(
  deps: WriteDeps,
  request: WriteRequest,
  origin: OriginClass,
  originReason: OriginReason,
): Reporter {
  const envelope = request.envelope as unknown as Record<string, unknown> | null | undefined;
  const channel = typeof envelope?.['channel'] === 'string' ? envelope['channel'] : 'invalid';
  const notes: string[] = [];

  const bump = async (name: string): Promise<void> => {
    try {
      await deps.store.bumpCounter(name);
    } catch (error) {
      // Telemetry must not turn a completed write into a failure (the caller would spool and apply it
      // again). A busy store gets the count later, through a tally; any other miss is logged.
      const busy = isMemoryError(error, 'STORE_BUSY') || isMemoryError(error, 'STORE_UNAVAILABLE');
      if (busy && deps.countLater?.(name) === true) return;
      deps.log.warn('write: counter not recorded', { counter: name, error: String(error) });
    }
  };
  const finish = async (outcome: WriteOutcome, counter: string): Promise<WriteOutcome> => {
    await bump(counter);
    deps.log.info('write', {
      decision: outcome.decision,
      reason: outcome.reason,
      origin,
      originReason,
      channel,
      memoryId: outcome.decision === 'reject' ? null : outcome.memory.id,
      similarity: outcome.decision === 'merge' ? (outcome.similarity ?? null) : null,
      notes: outcome.notes,
    });
    return outcome;
  };

  return {
    channel,
    notes,
    async claims() {
      const ignored: string[] = Object.keys(request.claims ?? {});
      if (request.force === true && !honoursForceFlag(channel as never)) ignored.push('force');
      if (
        channel === 'tool' &&
        typeof request.originTool === 'string' &&
        request.originTool !== envelope?.['toolName']
      ) {
        ignored.push('originTool');
      }
      if (ignored.length === 0) return;
      notes.push(`caller claims ignored on channel ${channel}: ${ignored.join(', ')}`);
      deps.log.warn('write: caller claims ignored', { channel, origin, claims: ignored });
      await bump('write.claims_ignored');
    },
    reject: (reason, note) =>
      finish(
        { decision: 'reject', origin, reason, notes: [...notes, note] },
        `write.rejected.${reason}`,
      ),
    merge: (memory, reason, similarity) =>
      finish(
        similarity === undefined
          ? { decision: 'merge', memory, origin, reason, notes: [...notes] }
          : { decision: 'merge', memory, origin, reason, similarity, notes: [...notes] },
        'write.merged',
      ),
    store: (memory, reason) =>
      finish({ decision: 'store', memory, origin, reason, notes: [...notes] }, 'write.stored'),
  };
}
