/**
 * What a test home holds after a hook ran, read as the user would find it: every memory in the store
 * (any review state, superseded ones too), the day counters summed, the spool files waiting, the log,
 * the scripts compiled through the code cache and a session's taint.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Memory } from '../../src/core/memory.js';
import { QUARANTINE_STATES } from '../../src/core/memory.js';
import type { TestHome } from './mnemo-bin.js';
import { withStore } from './test-app.js';

/** Every memory of the home's store, whatever its review state, superseded ones included. */
export function allRows(t: TestHome): Promise<Memory[]> {
  return withStore(t.home, (app) =>
    app.store.listMemories({ limit: 1000, includeSuperseded: true, quarantine: QUARANTINE_STATES }),
  );
}

/** Every counter of the store, summed over all days. */
export async function summedCounters(t: TestHome): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const row of await withStore(t.home, (app) => app.store.readCounters('2000-01-01'))) {
    out[row.name] = (out[row.name] ?? 0) + row.value;
  }
  return out;
}

/** The published spool files waiting in the home (not the tallies, not claimed ones). */
export function spooledFiles(t: TestHome): string[] {
  const dir = join(t.home, 'spool');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.jsonl')) : [];
}

/** The text of the home's log, or '' when nothing was logged. */
export function logText(t: TestHome): string {
  const file = join(t.home, 'logs', 'mnemo.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** The scripts hook processes of the home compiled through the code cache (bundles and chunks), sorted. */
export function compiledScripts(t: TestHome): string[] {
  const dir = join(t.home, 'cache', 'v8');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Whether the store holds session `session` as tainted. */
export function sessionTainted(t: TestHome, session: string): Promise<boolean> {
  return withStore(t.home, async (app) => (await app.store.getSessionTaint(session)).tainted);
}

/** `t` with the hash embedder: an engine started in it has no model to load. */
export function withHashEmbedder(t: TestHome): TestHome {
  Object.assign(t.env, { MNEMO_EMBEDDING_MODEL: 'hash' });
  return t;
}
