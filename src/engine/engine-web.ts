/**
 * The resident engine's copy of the web viewer (`ui.withEngine`, on by default): it shares the
 * engine's app and models, so a search there uses the embedder that is already loaded, and its use
 * counts as engine activity. Its address is written to `home/engine-ui.json` (0600, in the private home)
 * so `mnemo ui` can hand it out instead of starting a second server; the file goes when the engine stops.
 * A viewer that cannot start is logged and left out: the engine's own work never depends on it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { App } from '../app/open-app.js';
import { writeNewFileSynced } from '../platform/private-fs.js';
import type { WebModels } from '../web/web-context.js';

/** What `mnemo ui` reads to find the engine's viewer. */
export interface EngineUiRecord {
  pid: number;
  port: number;
  /** The address with the token (the file is as private as the engine's own token file). */
  url: string;
}

export function engineUiFile(home: string): string {
  return join(home, 'engine-ui.json');
}

/** The record of a running engine's viewer, or undefined when there is none or it is unreadable. */
export function readEngineUi(home: string): EngineUiRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(engineUiFile(home), 'utf8')) as Partial<EngineUiRecord>;
    if (
      typeof record.pid === 'number' &&
      typeof record.port === 'number' &&
      typeof record.url === 'string'
    ) {
      return { pid: record.pid, port: record.port, url: record.url };
    }
  } catch {
    // No engine viewer (or a torn file from a crash): `mnemo ui` starts its own.
  }
  return undefined;
}

export interface EngineWeb {
  close(): Promise<void>;
}

/** Starts the viewer for the engine, or returns undefined (logged) when it cannot. */
export async function startEngineWeb(options: {
  app: App;
  models: () => Promise<WebModels>;
  onActivity: () => void;
}): Promise<EngineWeb | undefined> {
  const { app } = options;
  const file = engineUiFile(app.config.home);
  try {
    const { startWebServer } = await import('../web/start-web-server.js');
    const server = await startWebServer({
      app,
      port: app.config.ui.port,
      fallback: true,
      models: options.models,
      catchUpEmbeddings: false,
      defaultProject: null,
      servedBy: 'engine',
      onActivity: options.onActivity,
    });
    rmSync(file, { force: true });
    const record: EngineUiRecord = { pid: process.pid, port: server.port, url: server.url };
    writeNewFileSynced(file, `${JSON.stringify(record)}\n`, 0o600);
    app.log.info('engine: web viewer', { port: server.port });
    return {
      async close() {
        rmSync(file, { force: true });
        await server.close();
      },
    };
  } catch (error) {
    app.log.warn('engine: web viewer not started', { error: String(error) });
    return undefined;
  }
}
