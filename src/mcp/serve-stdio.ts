/**
 * `mnemo mcp`: serves the MCP server over stdio until the client goes away. Stdout carries protocol
 * frames only; every log line goes to the log file (the app's logger). Resolves when the transport
 * closes (stdin ended, the client closed, or SIGTERM/SIGINT), so the caller can close the app.
 */
import type { Readable, Writable } from 'node:stream';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import type { App } from '../app/open-app.js';
import { createMcpServer } from './create-mcp-server.js';

export interface ServeStdioOptions {
  stdin?: Readable;
  stdout?: Writable;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Signals that end the server gracefully. Default SIGTERM and SIGINT on `process`. */
  signals?: readonly NodeJS.Signals[];
}

/** Serves until the connection ends. Never writes anything but protocol to `stdout`. */
export async function serveStdio(app: App, options: ServeStdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const server = createMcpServer(app, { env: options.env, cwd: options.cwd });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  server.server.onerror = (error) => app.log.warn('mcp protocol error', { error: String(error) });
  await server.connect(new StdioServerTransport(stdin, options.stdout ?? process.stdout));
  app.log.info('mcp server started', { pid: process.pid });

  const stop = (): void => {
    server.close().catch((error: unknown) => {
      app.log.error('mcp close failed', { error: String(error) });
    });
  };
  // The SDK's stdio transport does not watch for end of input; a client that exits only closes the pipe.
  stdin.once('end', stop);
  stdin.once('close', stop);
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  for (const signal of signals) process.once(signal, stop);
  try {
    await closed;
  } finally {
    stdin.off('end', stop);
    stdin.off('close', stop);
    for (const signal of signals) process.off(signal, stop);
    app.log.info('mcp server stopped');
  }
}
