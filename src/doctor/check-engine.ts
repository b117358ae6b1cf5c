/**
 * Doctor check of the resident engine: it answers a ping over its socket with the install's token. When
 * none runs, the doctor starts one in the background (as a hook or the MCP server would) with a short
 * idle exit, and waits for it, so the check proves that an engine can start here, not only that one ran.
 * With background starts switched off (`engine.autoStart: false`, `MNEMO_ENGINE_AUTOSTART=0`) it starts
 * none either: hooks then run the direct path, a supported set-up, and the check says so.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { App } from '../app/open-app.js';
import { pingEngine, startEngineDetached } from '../engine/engine-client.js';
import { fail, pass } from './doctor-check.js';

/** How long the doctor waits for an engine it started. Loading the embedder can take seconds. */
export const ENGINE_START_WAIT_MS = 20_000;
/** An engine the doctor started exits after this long without requests. */
export const DOCTOR_ENGINE_IDLE_MS = 60_000;

const PING_TIMEOUT_MS = 1000;

function describe(ping: { pid: number; version: string; uptimeMs: number }): string {
  return `pid ${ping.pid}, version ${ping.version}, up ${Math.round(ping.uptimeMs / 1000)} s`;
}

/** The engine answers, or starts and then answers. */
export async function checkEngine(app: App) {
  const running = await pingEngine(app.config, PING_TIMEOUT_MS, { log: app.log });
  if (running !== undefined) return pass(`running (${describe(running)})`, { ...running });
  if (!app.config.engine.autoStart) {
    return pass(
      'not running, and not started: background starts are off (engine.autoStart false or ' +
        'MNEMO_ENGINE_AUTOSTART=0); hooks read and write the store themselves. Run `mnemo serve` to start one.',
      { running: false, autoStart: false },
    );
  }
  const started = startEngineDetached(app.config, {
    log: app.log,
    idleExitMs: DOCTOR_ENGINE_IDLE_MS,
    force: true,
  });
  if (!started.started && started.reason === 'no_binary') {
    return fail(
      'the mnemo binary to start the engine with was not found',
      'Reinstall mnemo (`npm install -g mnemo`) or build it (`npm run build`).',
    );
  }
  const deadline = Date.now() + ENGINE_START_WAIT_MS;
  while (Date.now() < deadline) {
    await sleep(250);
    const ping = await pingEngine(app.config, PING_TIMEOUT_MS, { log: app.log });
    if (ping !== undefined) return pass(`started on demand (${describe(ping)})`, { ...ping });
  }
  return fail(
    `no engine answered within ${ENGINE_START_WAIT_MS / 1000} s`,
    'Run `mnemo serve --foreground` to see why it does not start, and check the log in $MNEMO_HOME/logs.',
  );
}
