/**
 * Per-session write-path state: the taint window of a Claude Code session, the claims that link an MCP
 * `remember` to its session, flood-control counts, and daily counters. Writes run inside the caller's
 * `BEGIN IMMEDIATE` transaction; none of them touches a memory, so none is audited.
 */
import { assertDay, CLAIM_PRUNE_BATCH, CLAIM_RETENTION_MS, utcDay } from '../session-rules.js';
import type { CounterRow, RememberClaim, SessionTaint } from '../store.js';
import type { SqliteLike } from './sqlite-like.js';
import type { WriteContext } from './sqlite-writes.js';

interface TaintRow {
  session_id: string;
  tainted: number;
  since: string | null;
  origin: string | null;
  tool_name: string | null;
}

/** Opens the taint window, or keeps the open one with its earliest `since`, origin and tool. */
export function markTaintedIn(
  ctx: WriteContext,
  sessionId: string,
  origin: string,
  toolName: string | null,
): void {
  ctx.db
    .prepare(
      `INSERT INTO session_taint (session_id, tainted, since, origin, tool_name, updated_at)
       VALUES (?, 1, ?, ?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET
         since = CASE WHEN tainted = 1 THEN since ELSE excluded.since END,
         origin = CASE WHEN tainted = 1 THEN origin ELSE excluded.origin END,
         tool_name = CASE WHEN tainted = 1 THEN tool_name ELSE excluded.tool_name END,
         tainted = 1,
         updated_at = excluded.updated_at`,
    )
    .run(sessionId, ctx.at, origin, toolName, ctx.at);
}

// Deleting instead of flagging keeps the table as small as the number of tainted sessions; an absent
// row reads as untainted, which is exactly the cleared state.
export function clearTaintIn(ctx: WriteContext, sessionId: string): void {
  ctx.db.prepare('DELETE FROM session_taint WHERE session_id = ?').run(sessionId);
}

export function readTaint(db: SqliteLike, sessionId: string): SessionTaint {
  const row = db
    .prepare(
      'SELECT session_id, tainted, since, origin, tool_name FROM session_taint WHERE session_id = ?',
    )
    .get(sessionId) as TaintRow | undefined;
  if (row === undefined || row.tainted !== 1) {
    return { sessionId, tainted: false, since: null, origin: null, toolName: null };
  }
  return {
    sessionId,
    tainted: true,
    since: row.since,
    origin: row.origin,
    toolName: row.tool_name,
  };
}

function pruneClaims(ctx: WriteContext): void {
  const cutoff = new Date(Date.parse(ctx.at) - CLAIM_RETENTION_MS).toISOString();
  ctx.db
    .prepare(
      `DELETE FROM remember_claims WHERE id IN
       (SELECT id FROM remember_claims WHERE at < ? ORDER BY at LIMIT ?)`,
    )
    .run(cutoff, CLAIM_PRUNE_BATCH);
}

export function recordClaimIn(ctx: WriteContext, claim: Omit<RememberClaim, 'at'>): void {
  pruneClaims(ctx);
  ctx.db
    .prepare(
      'INSERT INTO remember_claims (session_id, content_hash, tool_use_id, at) VALUES (?, ?, ?, ?)',
    )
    .run(claim.sessionId, claim.contentHash, claim.toolUseId, ctx.at);
}

/**
 * Deletes and returns the newest live claim for the hash. A claim older than the retention is dead
 * whatever `maxAgeMs` says, pruned yet or not; claims from the future count as live.
 */
export function takeClaimIn(
  ctx: WriteContext,
  contentHash: string,
  maxAgeMs: number,
): RememberClaim | undefined {
  pruneClaims(ctx);
  const age = Math.min(maxAgeMs, CLAIM_RETENTION_MS);
  const oldest = new Date(Date.parse(ctx.at) - age).toISOString();
  const row = ctx.db
    .prepare(
      `DELETE FROM remember_claims WHERE id =
         (SELECT id FROM remember_claims WHERE content_hash = ? AND at >= ?
          ORDER BY at DESC, id DESC LIMIT 1)
       RETURNING session_id AS sessionId, content_hash AS contentHash,
         tool_use_id AS toolUseId, at`,
    )
    .get(contentHash, oldest) as RememberClaim | undefined;
  return row;
}

/** Every memory row still stored, superseded and rejected included: flood control counts writes. */
export function countSessionWritesIn(
  db: SqliteLike,
  sessionId: string,
  origin: string,
  since: string,
): number {
  const row = db
    .prepare(
      'SELECT count(*) AS n FROM memories WHERE session_id = ? AND origin = ? AND created_at >= ?',
    )
    .get(sessionId, origin, since) as { n: number };
  return row.n;
}

export function bumpCounterIn(ctx: WriteContext, name: string, by: number): void {
  ctx.db
    .prepare(
      `INSERT INTO counters (day, name, value) VALUES (?, ?, ?)
       ON CONFLICT (day, name) DO UPDATE SET value = value + excluded.value`,
    )
    .run(utcDay(ctx.at), name, by);
}

export function readCountersFrom(db: SqliteLike, sinceDay: string): CounterRow[] {
  assertDay(sinceDay);
  return db
    .prepare('SELECT day, name, value FROM counters WHERE day >= ? ORDER BY day, name')
    .all(sinceDay) as CounterRow[];
}
