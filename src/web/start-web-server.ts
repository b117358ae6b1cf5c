/**
 * Starts the web viewer on 127.0.0.1 (never another interface) with a fresh token and CSRF token per
 * start, and returns the address to open: the token travels in the URL fragment, which the browser keeps
 * to itself (no request line, no Referer, no server log holds it). Used by `mnemo ui` and by the engine.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createAdaptorServer } from '@hono/node-server';

import { type App, processAuthor } from '../app/open-app.js';
import { MemoryError } from '../core/errors.js';
import { reviewActor } from '../review/review-decision.js';
import { createWebApp } from './create-web-app.js';
import { loadUiAssets } from './web-assets.js';
import type { WebModels } from './web-context.js';
import { OpenCodes } from './web-open-codes.js';

export interface StartWebOptions {
  app: App;
  /** The port to listen on; 0 takes any free one. */
  port: number;
  /** When the port is busy: take any free port (true), or fail with CONFLICT (false: the user chose it). */
  fallback: boolean;
  models: () => Promise<WebModels>;
  catchUpEmbeddings: boolean;
  defaultProject: string | null;
  servedBy: 'ui' | 'engine';
  /** The built front end; default dist/web/ui. */
  assetsDir?: string;
  onActivity?: () => void;
}

export interface WebServer {
  /** `http://127.0.0.1:<port>/#token=<token>`: what to open. */
  url: string;
  port: number;
  /** An address for a browser's command line: a one-time code instead of the token (web-open-codes.ts). */
  openUrl(): string;
  close(): Promise<void>;
}

function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Throws UNSUPPORTED when the front end is not built, CONFLICT when an explicit port is taken. */
export async function startWebServer(options: StartWebOptions): Promise<WebServer> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  let port = 0;
  const openCodes = new OpenCodes();
  const web = createWebApp({
    openCodes,
    ...(options.onActivity === undefined ? {} : { onActivity: options.onActivity }),
    app: options.app,
    actor: reviewActor('web-ui'),
    reader: processAuthor(options.app.config).user,
    models: options.models,
    catchUpEmbeddings: options.catchUpEmbeddings,
    defaultProject: options.defaultProject,
    servedBy: options.servedBy,
    identity: { port: () => port },
    token,
    csrfToken,
    assets: loadUiAssets(options.assetsDir),
    version: packageVersion(),
  });
  const server = createAdaptorServer({ fetch: web.fetch }) as Server;
  try {
    port = await listen(server, options.port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (!options.fallback) {
      throw new MemoryError(
        'CONFLICT',
        `Port ${options.port} on 127.0.0.1 is in use. Pass another with --port, or --port 0 for any free one.`,
        { cause: error },
      );
    }
    port = await listen(server, 0);
  }
  options.app.log.info('web viewer listening', { port, servedBy: options.servedBy });
  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    openUrl: () => `http://127.0.0.1:${port}/#code=${openCodes.mint()}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
