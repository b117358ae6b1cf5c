/**
 * The project-key backfill of schema v5. Project keys used to be root paths; a repository with a
 * network remote is now keyed by that remote (project/project-key.ts). Each stored key that is an
 * absolute path is offered to `rekeyProject` (the opener's resolver: the directory's key today, or
 * undefined when it no longer exists or has no remote); its rows move to the new key. Two checkouts of
 * one repository on this machine merge into one project: where both hold the same active text, the
 * later memory is superseded by the earlier one (kept for history, out of recall), since the unique
 * active-content rule holds per project. Each move is one audit entry.
 */
import { isAbsolute } from 'node:path';

import { appendAudit } from './sqlite-audit.js';
import type { SqliteLike } from './sqlite-like.js';
import type { MigrationContext } from './sqlite-schema.js';

export function rekeyProjects(db: SqliteLike, context: MigrationContext): void {
  const { rekeyProject } = context;
  if (rekeyProject === undefined) return;
  const keys = (
    db.prepare('SELECT DISTINCT project_key AS k FROM memories ORDER BY k').all() as { k: string }[]
  )
    .map((row) => row.k)
    .filter((key) => isAbsolute(key));
  for (const from of keys) {
    const to = rekeyProject(from);
    if (to === undefined || to === from) continue;
    // Active twins already under the new key win; the moving row is superseded by the older one.
    const twins = db
      .prepare(
        `SELECT moving.seq AS seq, moving.id AS id, kept.id AS keptId FROM memories moving
         JOIN memories kept ON kept.project_key = ? AND kept.content_hash = moving.content_hash
           AND kept.superseded_by IS NULL
         WHERE moving.project_key = ? AND moving.superseded_by IS NULL`,
      )
      .all(to, from) as { seq: number; id: string; keptId: string }[];
    for (const twin of twins) {
      db.prepare('UPDATE memories SET superseded_by = ?, updated_at = ? WHERE seq = ?').run(
        twin.keptId,
        context.at,
        twin.seq,
      );
      appendAudit(db, context.at, 'superseded', twin.id, {
        supersededBy: twin.keptId,
        reason: 'rekey',
      });
    }
    const moved = db
      .prepare('UPDATE memories SET project_key = ? WHERE project_key = ?')
      .run(to, from);
    appendAudit(db, context.at, 'rekey', null, {
      from,
      to,
      rows: Number(moved.changes),
      merged: twins.length,
    });
  }
}
