/**
 * The write service's vocabulary: its dependencies, policy, request and outcome. Its own file so the
 * service (write-memory.ts) and its steps (write-steps.ts) both import it and neither imports the other.
 */
import type { GateReason, Memory, MemoryKind, Visibility } from '../core/memory.js';
import type { OriginConfig, OriginEnvelope } from '../core/origin/classify-origin.js';
import type { OriginClass } from '../core/origin/origin-class.js';
import type { Logger } from '../log/log.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryStore } from '../store/store.js';

/** What the write service needs. Edges build it from `app` with `writeDepsFrom(app)`. */
export interface WriteDeps {
  store: MemoryStore;
  clock: Clock;
  log: Logger;
  policy: WritePolicy;
  /**
   * Keeps a counter the store was too busy to take, for a later fold (`App.countLater`). Omitted: such a
   * counter is logged as lost.
   */
  countLater?: (counter: string) => boolean;
}

/** The write-path settings, from config; defaults live in `write-policy.ts` (`DEFAULT_WRITE_POLICY`). */
export interface WritePolicy {
  originConfig: OriginConfig;
  /** Content cue detectors. Defence in depth only: `'off'` must not change any untrusted outcome. */
  detectors: 'on' | 'off';
  /** Per session, per origin write budget in a sliding window. An origin absent from the map is unlimited. */
  floodLimit: { windowMinutes: number; maxPerOrigin: Partial<Record<OriginClass, number>> };
  /** Lexical similarity in [0, 1] at or above which a write merges into an existing memory. */
  nearDuplicateThreshold: number;
}

/** One write. Only `envelope` decides the origin; everything the caller claims is logged and ignored. */
export interface WriteRequest {
  /** The CHANNEL the text arrived through; never derived from content. */
  envelope: OriginEnvelope;
  content: string;
  projectKey: string;
  /** Omitted: a person's leading label (`Decision:`, core/kind-prefix.ts) or else `note`. */
  kind?: MemoryKind;
  tags?: readonly string[];
  /** `global` is honoured only for origins allowlisted for global promotion; otherwise `project`. */
  visibility?: Visibility;
  /** Honoured only for origins allowlisted for pinning. */
  pinned?: boolean;
  sessionId?: string | null;
  /** A label for the producing tool, set by the edge. For the `tool` channel the envelope's tool name wins. */
  originTool?: string | null;
  /** Honoured only when `honoursForceFlag(envelope.channel)`; otherwise a logged, ignored claim. */
  force?: boolean;
  /** Other caller claims (origin, write_class...): logged by name, never honoured. */
  claims?: Record<string, unknown>;
  /**
   * The directory the writer works in (the session's `cwd`, the CLI's directory or `--project`, the MCP
   * client's root): the files the text cites are anchored against its working tree. Omitted: nothing is
   * anchored and the memory stays pending until a process in the project backfills it.
   */
  workingDir?: string | null;
  /**
   * The page a tool read, from the envelope's tool input (never from content). Kept only in the form
   * `sourceUrlOf` gives; anything else, or an address holding a secret, is dropped with a note.
   */
  sourceUrl?: string | null;
  /**
   * When the captured event happened, if the writer knows and it is past (an import of transcripts):
   * the memory is dated then (`RememberOptions.capturedAt`), not at the write.
   */
  capturedAt?: string;
}

/** Why a write was refused. A closed list: telemetry counters are named after it (`write.rejected.<reason>`). */
export const REJECT_REASONS = [
  'invalid_input',
  'empty_after_redaction',
  'flood_budget',
  'previously_rejected',
] as const;
/** One reason of {@link REJECT_REASONS}. */
export type RejectReason = (typeof REJECT_REASONS)[number];

/** The outcome of one write. `notes` are human-readable and never contain the content. */
export type WriteOutcome =
  | { decision: 'store'; memory: Memory; origin: OriginClass; reason: GateReason; notes: string[] }
  | {
      decision: 'merge';
      memory: Memory;
      origin: OriginClass;
      reason: 'exact_duplicate' | 'near_duplicate';
      similarity?: number;
      notes: string[];
    }
  | { decision: 'reject'; origin: OriginClass; reason: RejectReason; notes: string[] };
