/**
 * The store's self-check for `mnemo doctor` (threat model S3) on PostgreSQL: the lexical columns of every
 * row against what the adapter derives from its content, tags and context (the tsvector is generated
 * from them, so this covers the full-text index), the term statistics' document count, sentence vectors
 * against the rows that claim them, and the audit hash chain.
 * Page-level checks belong to the server (amcheck, checksums), not to mnemo.
 */
import type { PgQueryable } from './pg-like.js';
import { verifyAuditChain } from './postgres-audit.js';
import { lexicalColumns } from './postgres-rows.js';
import { listSpaces } from './postgres-vectors.js';

const PAGE = 2000;

export async function integrityProblems(db: PgQueryable): Promise<string[]> {
  const problems: string[] = [];
  let after = 0;
  let stale = 0;
  for (;;) {
    const { rows } = await db.query<{
      seq: string;
      content: string;
      tags: string[];
      context: string;
      lexical_body: string;
      lexical_context: string;
    }>(
      `SELECT seq, content, tags, context, lexical_body, lexical_context FROM memories
       WHERE seq > $1 ORDER BY seq LIMIT $2`,
      [after, PAGE],
    );
    for (const row of rows) {
      const expected = lexicalColumns(row.content, row.tags, row.context);
      if (row.lexical_body !== expected.body || row.lexical_context !== expected.context)
        stale += 1;
    }
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)?.seq ?? after);
  }
  if (stale > 0)
    problems.push(`memories: ${stale} rows whose lexical index text does not match their content`);
  const { rows: counted } = await db.query<{ docs: string; n: string }>(
    'SELECT (SELECT docs FROM lexical_state WHERE id = 1) AS docs, (SELECT count(*) FROM memories) AS n',
  );
  const docs = Number(counted[0]?.docs ?? 0);
  const held = Number(counted[0]?.n ?? 0);
  if (docs !== held)
    problems.push(
      `lexical_state: totals count ${docs} documents, the store holds ${held} memories`,
    );
  // A memory may hold vectors of several models (the word-vector leg's beside its sentence vector);
  // only spaces of a sentence model some memory names are checked against the memory's own model.
  const { rows: sentenceModels } = await db.query<{ model: string }>(
    'SELECT DISTINCT embedding_model AS model FROM memories WHERE embedding_model IS NOT NULL',
  );
  const sentence = new Set(sentenceModels.map((row) => row.model));
  for (const space of (await listSpaces(db)).filter((s) => sentence.has(s.model))) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${space.table} v JOIN memories m ON m.seq = v.seq
       WHERE m.embedding_model IS DISTINCT FROM $1`,
      [space.model],
    );
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0)
      problems.push(`${space.table}: ${n} vectors of a model their memory no longer names`);
  }
  const spaces = await listSpaces(db);
  const models = [...new Set(spaces.map((space) => space.model))];
  const holds = (model: string): string =>
    spaces
      .filter((space) => space.model === model)
      .map((space) => `NOT EXISTS (SELECT 1 FROM ${space.table} v WHERE v.seq = m.seq)`)
      .join(' AND ');
  const conditions = [
    `(m.embedding_model <> ALL($1::text[]))`,
    ...models.map((model, i) => `(m.embedding_model = $${i + 2} AND ${holds(model)})`),
  ];
  const { rows: missing } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM memories m WHERE m.embedding_model IS NOT NULL AND (${conditions.join(' OR ')})`,
    [models, ...models],
  );
  const without = Number(missing[0]?.n ?? 0);
  if (without > 0) problems.push(`memories: ${without} rows name a vector that is not stored`);
  const broken = await verifyAuditChain(db);
  if (broken !== null) problems.push(`audit chain breaks at entry ${broken}`);
  return problems;
}
