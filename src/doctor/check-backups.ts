/**
 * Doctor checks of the store's backups (SQLite only: a PostgreSQL store is the server's to back up).
 * Plain `doctor` lists them; `doctor --verify` opens each one and runs the store's integrity check on
 * it (pages, full-text indexes, audit chain), so the user knows which copy `mnemo restore` would use
 * before they need it.
 */
import { type StoreBackups, storeBackups } from '../app/store-backups.js';
import type { Config } from '../config/config.js';
import { fail, pass } from './doctor-check.js';

function age(ms: number): string {
  const hours = ms / 3_600_000;
  return hours < 48 ? `${Math.max(0, Math.round(hours))} h` : `${Math.round(hours / 24)} days`;
}

/** The backups there are, the newest's age and, with `verify`, whether each passes its check. */
export async function checkBackups(config: Config, now: Date, verify: boolean) {
  const backups = await storeBackups(config);
  if (backups === null) {
    return pass(
      'PostgreSQL store: back it up with the server’s tools (pg_dump, base backups); `mnemo restore` is for SQLite',
    );
  }
  const list = backups.list();
  if (list.length === 0) {
    return pass('none yet (the engine takes one a day; every migration takes one first)', {
      backups: [],
    });
  }
  const newest = list[0];
  const summary = `${list.length} beside the store, newest ${age(now.getTime() - (newest?.takenAt.getTime() ?? 0))} old`;
  if (!verify) {
    return pass(`${summary} (\`mnemo doctor --verify\` checks each)`, {
      backups: list.map((b) => ({
        path: b.path,
        kind: b.kind,
        takenAt: b.takenAt.toISOString(),
        bytes: b.bytes,
      })),
    });
  }
  return verifyAll(backups, summary);
}

function verifyAll(backups: StoreBackups, summary: string) {
  const checked = backups.list().map((b) => ({ ...b, check: backups.check(b.path) }));
  const data = {
    backups: checked.map((b) => ({
      path: b.path,
      kind: b.kind,
      takenAt: b.takenAt.toISOString(),
      bytes: b.bytes,
      schemaVersion: b.check.schemaVersion,
      memories: b.check.memories,
      auditEntries: b.check.auditEntries,
      problems: b.check.problems,
    })),
  };
  const bad = checked.filter((b) => b.check.problems.length > 0);
  const good = checked.find((b) => b.check.problems.length === 0);
  if (good === undefined) {
    return fail(
      `${summary}; none passes its integrity check (${bad.map((b) => `${b.path}: ${b.check.problems[0] ?? ''}`).join('; ')})`,
      'Keep the store as it is and `mnemo export` what still reads; do not delete these files.',
      data,
    );
  }
  const told =
    bad.length === 0 ? 'all pass' : `${bad.length} fail (${bad.map((b) => b.path).join(', ')})`;
  return pass(
    `${summary}; ${told}; \`mnemo restore\` would use ${good.path} (${good.check.memories} memories, ` +
      `audit chain of ${good.check.auditEntries} entries verified)`,
    data,
  );
}
