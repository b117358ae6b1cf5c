/**
 * The engine's socket server: reads newline-delimited requests (engine-protocol.ts), checks each one's
 * token before anything else, runs the handler and writes one response line per request, in order per
 * connection. Bounded on every axis: line size, connections, idle connections. A wrong token is logged
 * (never the token) and ends the connection.
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';

import { isMemoryError } from '../core/errors.js';
import type { Logger } from '../log/log.js';
import type { SpoolEntry } from '../spool/spool-record.js';
import {
  type EngineHookArgs,
  type EngineInjectArgs,
  type EngineRecallArgs,
  errorLine,
  okLine,
  type ParsedRequest,
  parseRequest,
} from './engine-protocol.js';
import { LineBuffer, MAX_REQUEST_BYTES } from './engine-wire.js';

/** What the server calls for each authenticated request. Results must be JSON-serialisable. */
function isLate(result: unknown): boolean {
  return typeof result === 'object' && result !== null && 'late' in result;
}

export interface EngineHandlers {
  ping(): Promise<unknown>;
  recall(args: EngineRecallArgs): Promise<unknown>;
  /** Applies (or, with the store busy, spools) a capture a hook handed off; answers once it is safe. */
  capture(entry: SpoolEntry): Promise<unknown>;
  /** Answers a session-start or prompt-recall hook with the engine's store (see run-engine.ts). */
  inject(args: EngineInjectArgs): Promise<unknown>;
  /** Answers a whole forwarded hook (capture, injection or claim) with the engine's store. */
  hook(args: EngineHookArgs): Promise<unknown>;
  drain(): Promise<unknown>;
  stop(): Promise<unknown>;
}

export interface EngineServerOptions {
  token: string;
  handlers: EngineHandlers;
  log: Logger;
  /** Called as each authenticated request starts and ends (idle tracking). */
  onRequest?: (phase: 'start' | 'end') => void;
}

/** The running server. */
export interface EngineServer {
  readonly server: Server;
  /** Authenticated requests being handled now. */
  inFlight(): number;
  /** Stops accepting, lets in-flight responses flush, then drops every connection. */
  close(): Promise<void>;
}

/** Concurrent connections accepted; hooks open one each and close it at once. */
export const MAX_CONNECTIONS = 64;
/** A connection silent for this long is dropped. */
export const CONNECTION_IDLE_MS = 30_000;

type Request = Extract<ParsedRequest, { ok: true }>;

function dispatch(handlers: EngineHandlers, request: Request): Promise<unknown> {
  switch (request.op) {
    case 'recall':
      return handlers.recall(request.args);
    case 'capture':
      return handlers.capture(request.args);
    case 'inject':
      return handlers.inject(request.args);
    case 'hook':
      return handlers.hook(request.args);
    default:
      return handlers[request.op]();
  }
}

/** The event of a request that injects context (and records it in the ledger), else undefined. */
function injectingEvent(request: Request): string | undefined {
  if (request.op === 'inject') return request.args.event;
  if (request.op !== 'hook') return undefined;
  const { event } = request.args;
  return event === 'session-start' || event === 'user-prompt-submit' ? event : undefined;
}

/** Creates the server (not yet listening). */
export function createEngineServer(options: EngineServerOptions): EngineServer {
  const sockets = new Set<Socket>();
  let inFlight = 0;

  const handle = async (socket: Socket, line: string, state: { closing: boolean }) => {
    if (state.closing || socket.destroyed) return;
    const parsed = parseRequest(line, options.token);
    if (!parsed.ok) {
      if (parsed.code === 'UNAUTHORIZED') {
        options.log.warn('engine: request refused (wrong or missing token)');
      } else {
        options.log.debug('engine: bad request', { code: parsed.code, reason: parsed.message });
      }
      socket.write(errorLine(parsed.id, parsed.code, parsed.message));
      if (parsed.close) {
        state.closing = true;
        socket.end();
      }
      return;
    }
    inFlight += 1;
    options.onRequest?.('start');
    try {
      const result = await dispatch(options.handlers, parsed);
      if (!socket.destroyed) socket.write(okLine(parsed.id, result));
      else if (injectingEvent(parsed) !== undefined && !isLate(result)) {
        // The hook stopped waiting after the ledger row was written (its margin is 100 ms): it reads
        // the store itself, so the row may name memories this session was not shown. Said, not hidden.
        options.log.warn('engine: an injection was recorded but its hook had stopped waiting', {
          event: injectingEvent(parsed),
        });
      }
    } catch (error) {
      const known = isMemoryError(error);
      if (!known)
        options.log.error('engine: request failed', { op: parsed.op, error: String(error) });
      if (!socket.destroyed) {
        socket.write(
          errorLine(
            parsed.id,
            known ? error.code : 'INTERNAL',
            known ? error.message : 'internal error; see the engine log',
          ),
        );
      }
    } finally {
      inFlight -= 1;
      options.onRequest?.('end');
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setTimeout(CONNECTION_IDLE_MS, () => socket.destroy());
    socket.on('error', (error) =>
      options.log.debug('engine: connection error', { error: String(error) }),
    );
    const lines = new LineBuffer(MAX_REQUEST_BYTES);
    const state = { closing: false };
    let chain = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      if (state.closing) return;
      for (const line of lines.push(chunk)) chain = chain.then(() => handle(socket, line, state));
      if (lines.overflow) {
        state.closing = true;
        chain = chain.then(() => {
          options.log.warn('engine: request over the size limit; connection dropped', {
            maxBytes: MAX_REQUEST_BYTES,
          });
          socket.end(
            errorLine(null, 'TOO_LARGE', `requests are limited to ${MAX_REQUEST_BYTES} bytes`),
          );
        });
      }
    });
  });
  server.maxConnections = MAX_CONNECTIONS;

  return {
    server,
    inFlight: () => inFlight,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.end();
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
      await Promise.race([closed, timeout]);
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/**
 * Listens on `socketPath` (removing a stale socket file first: the caller holds the engine lock) and
 * restricts the socket to this user (0600) where the platform has socket permissions.
 */
export async function listenEngine(engine: EngineServer, socketPath: string): Promise<void> {
  const pipe = socketPath.startsWith('\\\\.\\pipe\\');
  if (!pipe) rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    engine.server.once('error', reject);
    engine.server.listen(socketPath, () => {
      engine.server.off('error', reject);
      resolve();
    });
  });
  if (!pipe) chmodSync(socketPath, 0o600);
}
