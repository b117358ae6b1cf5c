import { spawn } from 'node:child_process';

import { isMemoryError } from '../../core/errors.js';
import type { WebModels } from '../../web/web-context.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { projectKeyFromOption } from '../project-option.js';

export interface UiCliOptions {
  /** Listen on this port (0: any free one); fails when it is taken. Default: `ui.port`, or a free one. */
  port?: number;
  /** Open the viewer in the default browser. */
  open?: boolean;
  /** The project the viewer opens on (default: the current directory's). */
  project?: string;
}

/**
 * `mnemo ui`: the web viewer on 127.0.0.1. When the resident engine already serves it (and no port was
 * asked for), prints that address; otherwise serves it from this process until Ctrl-C. The printed
 * address carries a token that changes every start; `--open` hands the browser a one-time code instead,
 * since a browser's command line is visible to other local users.
 */
export async function ui(ctx: CliContext, options: UiCliOptions): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const config = loadConfig({ env: ctx.io.env });
  if (options.port === undefined) {
    const engine = await engineViewer(config.home);
    if (engine !== undefined) {
      await writeOut(
        ctx.io.stdout,
        `mnemo viewer (served by the engine, pid ${engine.pid}): ${engine.url}\n`,
      );
      if (options.open === true) await openBrowser(ctx, engine.url);
      return;
    }
  }
  let defaultProject: string | null = null;
  try {
    defaultProject = projectKeyFromOption(ctx.io, options.project);
  } catch (error) {
    if (!isMemoryError(error) || options.project !== undefined) throw error;
  }
  const app = await ctx.openApp();
  const { startWebServer } = await import('../../web/start-web-server.js');
  const server = await startWebServer({
    app,
    port: options.port ?? app.config.ui.port,
    fallback: options.port === undefined,
    models: lazyModels(ctx, app),
    catchUpEmbeddings: true,
    defaultProject,
    servedBy: 'ui',
  });
  await writeOut(
    ctx.io.stdout,
    `mnemo viewer: ${server.url}\n` +
      'The address carries this run’s token: keep it to yourself. Ctrl-C stops the viewer.\n',
  );
  if (options.open === true) await openBrowser(ctx, server.openUrl());
  await untilSignal();
  await server.close();
  await writeOut(ctx.io.stdout, 'mnemo viewer stopped.\n');
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** The embedder and reranker, opened at the first search; a model that cannot load turns its leg off. */
function lazyModels(
  ctx: CliContext,
  app: Awaited<ReturnType<CliContext['openApp']>>,
): () => Promise<WebModels> {
  let models: Promise<WebModels> | undefined;
  return () => {
    models ??= (async () => {
      const { openEmbedder, openReranker } = await import('../../embed/open-embedder.js');
      const attempt = async <T>(what: string, open: () => Promise<T>): Promise<T | undefined> => {
        try {
          return await open();
        } catch (error) {
          if (!isMemoryError(error)) throw error;
          app.log.warn(`ui: ${what} off`, { error: error.message });
          await writeOut(ctx.io.stderr, `mnemo: ${what} is off for the viewer: ${error.message}\n`);
          return undefined;
        }
      };
      return {
        embedder: await attempt('vector search', () => openEmbedder(app.config)),
        reranker: await attempt('rerank', () => openReranker(app.config)),
      };
    })();
    return models;
  };
}

/** The engine's viewer when it is running and answers with the token it recorded. */
async function engineViewer(home: string): Promise<{ pid: number; url: string } | undefined> {
  const { readEngineUi } = await import('../../engine/engine-web.js');
  const record = readEngineUi(home);
  if (record === undefined) return undefined;
  const token = /#token=([A-Za-z0-9_-]+)$/.exec(record.url)?.[1];
  if (token === undefined) return undefined;
  try {
    const response = await fetch(`http://127.0.0.1:${record.port}/api/session`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(1500),
    });
    return response.ok ? { pid: record.pid, url: record.url } : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the platform's opener; the address was printed already, so a failure only says so. */
async function openBrowser(ctx: CliContext, url: string): Promise<void> {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  const failed = await new Promise<string | undefined>((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (error) => resolve(error.message));
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
  if (failed !== undefined) {
    await writeOut(
      ctx.io.stderr,
      `mnemo: could not open a browser (${failed}); open the address above.\n`,
    );
  }
}
