// The API's wire format, as the server's routes (src/web/api-*.ts) answer it. Types the server already
// declares are imported from it (type-only: nothing of the server is bundled).
import type { AnchorHow } from '../../../core/anchors/anchor.js';
import type { StalenessStatus } from '../../../core/anchors/staleness.js';
import type { Memory as FullMemory } from '../../../core/memory.js';
import type { LegReport } from '../../../retrieval/leg-report.js';
import type { BulkPreview, BulkReport } from '../../../review/bulk-report.js';
import type { LedgerDay, LedgerSession } from '../../../review/summarise-ledger.js';
import type { AuditEntry, MemoryGroupCount as GroupCount } from '../../../store/store.js';
import type { AuditRow } from '../../audit-view.js';
import type {
  CaptureDay,
  ClusterView,
  GroupMarks,
  MemoryRow,
  TimelineEvent,
} from '../../web-views.js';

export type {
  AuditEntry,
  AuditRow,
  BulkPreview,
  BulkReport,
  CaptureDay,
  ClusterView,
  FullMemory,
  GroupCount,
  GroupMarks,
  LedgerSession,
  LegReport,
  MemoryRow,
};

export interface Page<T> {
  total: number;
  offset: number;
  limit: number;
  items: T[];
}

export interface Session {
  csrfToken: string;
  version: string;
  servedBy: 'ui' | 'engine';
  defaultProject: string | null;
  actor: string;
  vocabulary: { kinds: string[]; origins: string[] };
}

export interface SearchHit {
  memory: MemoryRow;
  score: number;
  fusedScore?: number;
  /** Calibrated relevance in (0, 1) (hybrid search only). */
  relevance?: number;
  ranks: Record<string, number | undefined>;
  contributions?: Record<string, number>;
  factors?: Record<string, number>;
  heat?: number;
  trustBand?: string;
  quarantined?: boolean;
  stale: boolean;
  staleLabel?: string | null;
}

export interface SearchResult {
  mode: 'hybrid' | 'lexical';
  query: string;
  project: string | null;
  legs: LegReport[];
  candidates: number;
  /** How hybrid recall fused its legs; absent for the word index alone. */
  fusion?: 'score' | 'rrf';
  /** The lowest calibrated relevance a session would be given (hybrid search only). */
  relevanceFloor?: number;
  rerank?: { ran: boolean; model?: string; skipped?: string; window: number };
  mmr?: boolean;
  hits: SearchHit[];
}

/** The part of the server's AnchorReport (src/anchors/anchor-report.ts) the memory page shows. */
export interface AnchorView {
  status: StalenessStatus;
  label: string | null;
  how: AnchorHow | null;
  resolvedAt: string | null;
  checkedIn: string | null;
  anchors: {
    path: string;
    kind: 'file' | 'mention';
    symbols?: readonly string[];
    commit?: string | null;
    verdict?: { state: string };
    description: string;
  }[];
}

export interface MemoryDetail {
  memory: FullMemory;
  origin: {
    class: string;
    meaning: string;
    trustBand: string;
    tool: string | null;
    session: string | null;
    tainted: boolean;
    sourceUrl: string | null;
  };
  gate: { reason: string; meaning: string; redactions: number; quarantine: string };
  injection: { eligible: boolean; withheld: { reason: string; meaning: string }[] };
  history: { replaced: MemoryRow[]; replacedBy: MemoryRow[] };
  anchors: AnchorView;
  /** The fragment cluster it is held in (threat model W8), or null. */
  cluster: ClusterView | null;
  audit: AuditRow[];
}

export interface Ledger {
  /** The author the ledger was read as (the store shows each author only their own sessions). */
  reader: string | null;
  since: string;
  days: number;
  partial: boolean;
  totals: { injections: number; tokens: number; memories: number; sessions: number };
  byDay: LedgerDay[];
  sessionCount: number;
  offset: number;
  limit: number;
  sessions: LedgerSession[];
  memories: Record<string, MemoryRow>;
}

export interface Dashboard {
  since: string;
  days: number;
  project: string | null;
  totals: { memories: number; pending: number };
  byOrigin: GroupCount[];
  originsOverTime: GroupCount[];
  captures: { perProject: boolean; days: CaptureDay[] };
  heat: { buckets: { from: number; to: number; count: number }[]; warm: number; total: number };
}

export interface SessionTimeline {
  session: string;
  captures: number;
  injections: number;
  tokens: number;
  events: TimelineEvent[];
}
