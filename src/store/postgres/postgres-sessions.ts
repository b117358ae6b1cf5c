/**
 * Per-session write-path state (taint windows, remember claims, flood counts, daily counters) in
 * PostgreSQL (the injection ledger: postgres-injections.ts). The rules are the shared ones of
 * store/session-rules.ts; none of these writes touches a memory, so none is audited.
 */
import { CLAIM_PRUNE_BATCH, CLAIM_RETENTION_MS, utcDay } from '../session-rules.js';
import type { CounterRow, RememberClaim, SessionTaint } from '../store.js';
import type { PgQueryable } from './pg-like.js';
import { isoOf, isoOrNull } from './postgres-rows.js';
import type { PgWriteContext } from './postgres-writes.js';

/** Opens the taint window, or keeps the open one with its earliest `since`, origin and tool. */
export async function markTaintedIn(
  ctx: PgWriteContext,
  sessionId: string,
  origin: string,
  toolName: string | null,
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO session_taint AS t (session_id, tainted, since, origin, tool_name, updated_at)
     VALUES ($1, true, $2, $3, $4, $2)
     ON CONFLICT (session_id) DO UPDATE SET
       since = CASE WHEN t.tainted THEN t.since ELSE excluded.since END,
       origin = CASE WHEN t.tainted THEN t.origin ELSE excluded.origin END,
       tool_name = CASE WHEN t.tainted THEN t.tool_name ELSE excluded.tool_name END,
       tainted = true,
       updated_at = excluded.updated_at`,
    [sessionId, ctx.at, origin, toolName],
  );
}

// An absent row reads as untainted, which is exactly the cleared state.
export async function clearTaintIn(ctx: PgWriteContext, sessionId: string): Promise<void> {
  await ctx.db.query('DELETE FROM session_taint WHERE session_id = $1', [sessionId]);
}

export async function readTaint(db: PgQueryable, sessionId: string): Promise<SessionTaint> {
  const { rows } = await db.query<{
    tainted: boolean;
    since: Date | null;
    origin: string | null;
    tool_name: string | null;
  }>('SELECT tainted, since, origin, tool_name FROM session_taint WHERE session_id = $1', [
    sessionId,
  ]);
  const row = rows[0];
  if (row === undefined || !row.tainted) {
    return { sessionId, tainted: false, since: null, origin: null, toolName: null };
  }
  return {
    sessionId,
    tainted: true,
    since: isoOrNull(row.since),
    origin: row.origin,
    toolName: row.tool_name,
  };
}

async function pruneClaims(ctx: PgWriteContext): Promise<void> {
  const cutoff = new Date(Date.parse(ctx.at) - CLAIM_RETENTION_MS).toISOString();
  await ctx.db.query(
    `DELETE FROM remember_claims WHERE id IN
     (SELECT id FROM remember_claims WHERE at < $1 ORDER BY at LIMIT $2)`,
    [cutoff, CLAIM_PRUNE_BATCH],
  );
}

export async function recordClaimIn(
  ctx: PgWriteContext,
  claim: Omit<RememberClaim, 'at'>,
): Promise<void> {
  await pruneClaims(ctx);
  await ctx.db.query(
    'INSERT INTO remember_claims (session_id, content_hash, tool_use_id, at) VALUES ($1, $2, $3, $4)',
    [claim.sessionId, claim.contentHash, claim.toolUseId, ctx.at],
  );
}

/** Deletes and returns the newest live claim for the hash (older than the retention: dead). */
export async function takeClaimIn(
  ctx: PgWriteContext,
  contentHash: string,
  maxAgeMs: number,
): Promise<RememberClaim | undefined> {
  await pruneClaims(ctx);
  const age = Math.min(maxAgeMs, CLAIM_RETENTION_MS);
  const oldest = new Date(Date.parse(ctx.at) - age).toISOString();
  // SKIP LOCKED: two processes taking the same claim at once get it once between them.
  const { rows } = await ctx.db.query<{
    session_id: string;
    content_hash: string;
    tool_use_id: string | null;
    at: Date;
  }>(
    `DELETE FROM remember_claims WHERE id =
       (SELECT id FROM remember_claims WHERE content_hash = $1 AND at >= $2
        ORDER BY at DESC, id DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING session_id, content_hash, tool_use_id, at`,
    [contentHash, oldest],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    sessionId: row.session_id,
    contentHash: row.content_hash,
    toolUseId: row.tool_use_id,
    at: isoOf(row.at),
  };
}

/** Every memory row still stored, superseded and rejected included: flood control counts writes. */
export async function countSessionWritesIn(
  db: PgQueryable,
  sessionId: string,
  origin: string,
  since: string,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM memories WHERE session_id = $1 AND origin = $2 AND created_at >= $3',
    [sessionId, origin, since],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function bumpCounterIn(ctx: PgWriteContext, name: string, by: number): Promise<void> {
  await ctx.db.query(
    `INSERT INTO counters AS c (day, name, value) VALUES ($1, $2, $3)
     ON CONFLICT (day, name) DO UPDATE SET value = c.value + excluded.value`,
    [utcDay(ctx.at), name, by],
  );
}

export async function readCountersFrom(db: PgQueryable, sinceDay: string): Promise<CounterRow[]> {
  const { rows } = await db.query<{ day: string; name: string; value: string | number }>(
    'SELECT day, name, value FROM counters WHERE day >= $1 ORDER BY day, name',
    [sinceDay],
  );
  return rows.map((row) => ({ day: row.day, name: row.name, value: Number(row.value) }));
}
