/**
 * Informational doctor checks: what the hooks captured lately and how much disk mnemo uses. They fail only
 * when the numbers cannot be read.
 */
import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { App } from '../app/open-app.js';
import { modelsDir } from '../embed/model-cache.js';
import { pass } from './doctor-check.js';

/**
 * Capture telemetry of today and yesterday (UTC): counters are kept per day, so this is the last 24 h
 * rounded out to whole days. Stored and merged writes, skipped captures by reason, spooled captures.
 */
export async function checkCaptureRate(app: App) {
  const now = app.clock.now().getTime();
  const since = new Date(now - 86_400_000).toISOString().slice(0, 10);
  const rows = await app.store.readCounters(since);
  const sum = (test: (name: string) => boolean): number =>
    rows.filter((row) => test(row.name)).reduce((total, row) => total + row.value, 0);
  const data = {
    since,
    stored: sum((name) => name === 'write.stored'),
    merged: sum((name) => name === 'write.merged'),
    rejected: sum((name) => name.startsWith('write.rejected.')),
    skipped: sum((name) => name.startsWith('capture.skipped.')),
    spooled: sum((name) => name === 'capture.spooled'),
  };
  return pass(
    `since ${since}: ${data.stored} stored, ${data.merged} merged, ${data.rejected} rejected, ` +
      `${data.skipped} skipped, ${data.spooled} spooled`,
    data,
  );
}

/** Bytes under `path` (a file or a directory tree; symlinks not followed); 0 when absent. */
export function diskBytes(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  const entries: Dirent[] = readdirSync(path, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    total += diskBytes(join(path, entry.name));
  }
  return total;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Disk use of the store (with its WAL), logs, spool and model cache. */
export function checkDiskUse(app: App) {
  const { home, databasePath } = app.config;
  const data = {
    store:
      diskBytes(databasePath) + diskBytes(`${databasePath}-wal`) + diskBytes(`${databasePath}-shm`),
    logs: diskBytes(join(home, 'logs')),
    spool: diskBytes(join(home, 'spool')),
    models: diskBytes(modelsDir(home)),
  };
  const total = data.store + data.logs + data.spool + data.models;
  return pass(
    `${mib(total)} in ${home} (store ${mib(data.store)}, logs ${mib(data.logs)}, spool ${mib(data.spool)}, models ${mib(data.models)})`,
    { ...data, total },
  );
}
