/**
 * A stand-in engine for testing what a client does with a bad or partial answer: it holds a real lock
 * record (this process's pid), a real token file and a real Unix socket in a home, exactly where
 * `findEngine` looks, and answers each request line with what the test says: a reply line, garbage, or
 * a dropped connection. The real engine is tested through `mnemo serve`; this one exists for the answers
 * a real engine never gives on purpose.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';

import { afterEach } from 'vitest';

import { enginePaths } from '../../src/engine/engine-paths.js';
import { ENGINE_PROTOCOL_VERSION } from '../../src/engine/engine-wire.js';
import { newLockRecord } from '../../src/platform/pid-lock.js';

export const FAKE_ENGINE_TOKEN = 'ab'.repeat(32);

/** What the fake engine does with one request: a line to send back, `close` (drop the connection) or
 * `hang` (never answer). */
export type FakeAnswer = string;

export interface FakeEngine {
  /** Every request line received, parsed. */
  requests: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** A well-formed reply to request `id` with `result`. */
export function okReply(id: unknown, result: unknown): string {
  return JSON.stringify({ v: ENGINE_PROTOCOL_VERSION, id, ok: true, result });
}

/** A well-formed error reply. */
export function errorReply(id: unknown, code: string): string {
  return JSON.stringify({
    v: ENGINE_PROTOCOL_VERSION,
    id,
    ok: false,
    error: { code, message: code },
  });
}

export async function startFakeEngine(
  home: string,
  answer: (request: Record<string, unknown>) => FakeAnswer,
): Promise<FakeEngine> {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  const paths = enginePaths(home);
  const requests: Record<string, unknown>[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      const request = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
      buffered = '';
      requests.push(request);
      const reply = answer(request);
      if (reply === 'close') socket.destroy();
      else if (reply !== 'hang') socket.end(`${reply}\n`);
    });
  });
  rmSync(paths.socket, { force: true });
  await new Promise<void>((resolve) => server.listen(paths.socket, resolve));
  writeFileSync(paths.token, `${FAKE_ENGINE_TOKEN}\n`, { mode: 0o600 });
  writeFileSync(
    paths.lock,
    JSON.stringify(
      newLockRecord({ socket: paths.socket, version: 'fake', protocol: ENGINE_PROTOCOL_VERSION }),
    ),
    { mode: 0o600 },
  );
  let stopped: Promise<void> | undefined;
  return {
    requests,
    // Once: a test may stop its engine early and the cleanup stop it again.
    stop: () =>
      (stopped ??= (async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(paths.lock, { force: true });
      })()),
  };
}

/** `startFakeEngine` for a test file: every engine a test started is stopped after it. */
export function useFakeEngines(): typeof startFakeEngine {
  const started: FakeEngine[] = [];
  afterEach(async () => {
    for (const fake of started.splice(0)) await fake.stop();
  });
  return async (home, answer) => {
    const fake = await startFakeEngine(home, answer);
    started.push(fake);
    return fake;
  };
}
