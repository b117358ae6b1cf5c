/**
 * `mnemo import claude-code --mend`: rows stored by an import made before imports kept their provenance
 * have no source URL and are dated at the import. A mend reads the transcripts again and, for each pair
 * that capture-pair.ts would store, finds the row that pair stored (same project, session, kind, origin
 * and stored text after redaction) and fills what it lacks: the fetched page's URL, the tool name and
 * the transcript's time (store `mendProvenance`, audited). It never writes a new memory and never changes
 * text, origin or review state; a row it does not recognise is left alone.
 */
import type { Memory } from '../core/memory.js';
import { normaliseContent } from '../core/memory.js';
import type { OriginClass } from '../core/origin/origin-class.js';
import { sanitiseForStorage } from '../core/redact/redact-secrets.js';
import { contentHash } from '../store/content-hash.js';
import type { MemoryStore } from '../store/store.js';

/** Rows one (project, session) holds, by content hash; loaded once per pair of keys. */
export type MendIndex = Map<string, Map<string, Memory[]>>;

/** The most rows of one session a mend looks at; a session beyond it is mended up to it. */
const SESSION_ROWS = 10_000;

/** What one pair would have stored, and the provenance it knows. */
export interface MendCandidate {
  readonly projectKey: string;
  readonly sessionId: string;
  readonly kind: Memory['kind'];
  readonly origin: OriginClass;
  readonly content: string;
  readonly toolName: string;
  readonly sourceUrl: string | null;
  readonly capturedAt: string | undefined;
}

async function sessionRows(
  store: MemoryStore,
  index: MendIndex,
  projectKey: string,
  sessionId: string,
): Promise<Map<string, Memory[]>> {
  const key = `${projectKey}\u0000${sessionId}`;
  const known = index.get(key);
  if (known !== undefined) return known;
  const rows = await store.listMemories({
    scope: { projectKey, includeGlobal: false },
    sessionIds: [sessionId],
    quarantine: ['none', 'pending', 'approved', 'rejected'],
    limit: SESSION_ROWS,
  });
  const byHash = new Map<string, Memory[]>();
  for (const row of rows)
    byHash.set(row.contentHash, [...(byHash.get(row.contentHash) ?? []), row]);
  index.set(key, byHash);
  return byHash;
}

/** The stored text the write path makes of `content` (redacted, normalised), or null if none. */
function storedText(content: string): string | null {
  const clean = sanitiseForStorage(content).text;
  try {
    return normaliseContent(clean);
  } catch {
    return null; // The write path refuses it too: no row can hold it.
  }
}

/** What a mend did with one pair's row. `unknown`: no row of this pair (never stored, or forgotten). */
export type MendResult = 'mended' | 'unchanged' | 'unknown';

/** Mends the row a pair stored. */
export async function mendPair(
  store: MemoryStore,
  index: MendIndex,
  candidate: MendCandidate,
): Promise<MendResult> {
  const text = storedText(candidate.content);
  if (text === null) return 'unknown';
  const rows = await sessionRows(store, index, candidate.projectKey, candidate.sessionId);
  const row = (rows.get(contentHash(text)) ?? []).find(
    (m) => m.kind === candidate.kind && m.origin === candidate.origin && m.content === text,
  );
  if (row === undefined) return 'unknown';
  const { changed } = await store.mendProvenance(row.id, {
    sourceUrl: candidate.sourceUrl,
    originTool: candidate.toolName.slice(0, 128),
    ...(candidate.capturedAt === undefined ? {} : { createdAt: candidate.capturedAt }),
  });
  return changed.length > 0 ? 'mended' : 'unchanged';
}
