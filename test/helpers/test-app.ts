import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { type App, openApp } from '../../src/app/open-app.js';
import type { Memory } from '../../src/core/memory.js';
import type { Clock } from '../../src/ports/clock.js';

export type { App as TestApp };

/**
 * Opens the real app (config, log, SQLite store) on a temporary home. Layers that may not import the
 * composition root themselves (retrieval, edges) get a real store through this helper instead of a mock.
 */
export function openTestApp(
  home: string,
  options: { clock?: Clock; env?: Record<string, string> } = {},
): Promise<App> {
  return openApp({ env: { ...options.env, MNEMO_HOME: home }, clock: options.clock });
}

/** Opens the app on `home`, runs `read` and closes it again, for assertions on what a process stored. */
export async function withStore<T>(home: string, read: (app: App) => Promise<T>): Promise<T> {
  const app = await openTestApp(home);
  try {
    return await read(app);
  } finally {
    await app.close();
  }
}

/** Every memory (superseded and every review state included) and every counter summed over all days. */
export async function everything(
  app: App,
): Promise<{ rows: Memory[]; counters: Record<string, number> }> {
  const rows = await app.store.listMemories({
    limit: 1000,
    includeSuperseded: true,
    quarantine: ['none', 'pending', 'approved', 'rejected'],
  });
  const counters: Record<string, number> = {};
  for (const row of await app.store.readCounters('2000-01-01')) {
    counters[row.name] = (counters[row.name] ?? 0) + row.value;
  }
  return { rows, counters };
}

/**
 * Runs `work` with the app of a fresh home and a project beside it that is a git repository (so its
 * key is its path), in a directory made by `tempDir` (`useTempDirs()`); closes the app afterwards.
 */
export async function withProjectApp(
  tempDir: (prefix?: string) => string,
  work: (app: App, project: string) => Promise<void>,
): Promise<void> {
  const root = tempDir('mnemo-inject-');
  const project = join(root, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const app = await openTestApp(join(root, 'home'));
  try {
    await work(app, project);
  } finally {
    await app.close();
  }
}
