import { type Config, loadConfig } from '../../config/config.js';
import { MemoryError } from '../../core/errors.js';
import { createLogger, type Logger } from '../../log/log.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface ServeCliOptions {
  /** Run the engine in this process until stopped. */
  foreground?: boolean;
  /** Idle time before exit, in milliseconds (parsed from `--idle-exit 15m`); 0 never. */
  idleExit?: number;
  /** Print the running engine's status. */
  status?: boolean;
  /** Ask the running engine to stop. */
  stop?: boolean;
}

/** How long `mnemo serve` waits for a background engine to answer its first ping. */
const START_WAIT_MS = 20_000;
const POLL_MS = 200;
/** If a library keeps the event loop alive after a clean shutdown, the process still ends this soon. */
const EXIT_GRACE_MS = 2000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `mnemo serve`: the resident engine. Without flags it starts the engine in the background (unless one
 * runs) and waits until it answers; `--foreground` runs it here until SIGTERM/SIGINT, a `stop` request or
 * the idle timeout; `--status` and `--stop` talk to the running one. A second engine for the same home
 * exits 0 saying which one runs.
 */
export async function serve(ctx: CliContext, options: ServeCliOptions): Promise<void> {
  const config = loadConfig({ env: ctx.io.env });
  const { systemClock } = await import('../../app/open-app.js');
  const log = createLogger({
    file: config.logFile,
    level: config.logLevel,
    clock: systemClock,
    stderr: ctx.io.stderr,
    stderrLevel: ctx.verbose ? 'debug' : 'silent',
  });
  const client = await import('../../engine/engine-client.js');
  const idleExitMs = options.idleExit ?? config.engine.idleExitMinutes * 60_000;

  if (options.status === true) {
    const ping = await client.pingEngine(config, 2000, { log });
    await writeOut(
      ctx.io.stdout,
      ping === undefined
        ? `No mnemo engine is running for ${config.home}.\n`
        : `mnemo engine ${ping.version} running for ${ping.home}: pid ${ping.pid}, up ${Math.round(ping.uptimeMs / 1000)} s, ` +
            `embedder ${ping.embedder ?? 'none'}, spool ${ping.queues.spoolFiles} file(s), ` +
            `${ping.queues.unembedded}${ping.queues.unembedded >= ping.queues.unembeddedCap ? '+' : ''} memories to embed.\n`,
    );
    return;
  }
  if (options.stop === true) {
    const ping = await client.pingEngine(config, 2000, { log });
    if (ping === undefined || !(await client.stopEngine(config, 5000, { log }))) {
      await writeOut(ctx.io.stdout, `No mnemo engine is running for ${config.home}.\n`);
      return;
    }
    for (let waited = 0; waited < START_WAIT_MS; waited += POLL_MS) {
      if ((await client.pingEngine(config, 500)) === undefined) break;
      await sleep(POLL_MS);
    }
    await writeOut(ctx.io.stdout, `Stopped the mnemo engine (pid ${ping.pid}).\n`);
    return;
  }
  if (options.foreground === true) {
    await runForeground(ctx, config, log, idleExitMs);
    return;
  }

  const running = await client.pingEngine(config, 1000, { log });
  if (running !== undefined) {
    await writeOut(
      ctx.io.stdout,
      `A mnemo engine is already running for ${config.home} (pid ${running.pid}).\n`,
    );
    return;
  }
  const started = client.startEngineDetached(config, { idleExitMs, force: true, log });
  if (!started.started && started.reason === 'no_binary') {
    throw new MemoryError(
      'UNSUPPORTED',
      `Cannot find the built mnemo entry point (${client.mnemoMainPath()}). Run \`npm run build\`, or start the engine with \`mnemo serve --foreground\`.`,
    );
  }
  for (let waited = 0; waited < START_WAIT_MS; waited += POLL_MS) {
    const ping = await client.pingEngine(config, 1000);
    if (ping !== undefined) {
      await writeOut(ctx.io.stdout, `mnemo engine running for ${config.home} (pid ${ping.pid}).\n`);
      return;
    }
    await sleep(POLL_MS);
  }
  throw new MemoryError(
    'TIMEOUT',
    `The mnemo engine did not answer within ${START_WAIT_MS / 1000} s. See ${config.logFile}, or run \`mnemo serve --foreground --verbose\` to watch it start.`,
  );
}

async function runForeground(
  ctx: CliContext,
  config: Config,
  log: Logger,
  idleExitMs: number,
): Promise<void> {
  const { runEngine } = await import('../../engine/run-engine.js');
  const { answerInjection } = await import('../../hooks/engine-injection.js');
  const { answerForwardedHook } = await import('../../hooks/engine-hook.js');
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    const result = await runEngine({
      config,
      log,
      idleExitMs,
      signal: controller.signal,
      inject: answerInjection,
      hook: answerForwardedHook,
      onReady: ({ pid, socket }) =>
        void writeOut(ctx.io.stdout, `mnemo engine running (pid ${pid}, socket ${socket})\n`),
    });
    if (result.status === 'already_running') {
      const pid = result.holder?.pid;
      await writeOut(
        ctx.io.stdout,
        `A mnemo engine is already running for ${config.home}${pid === undefined ? '' : ` (pid ${pid})`}.\n`,
      );
      return;
    }
    await writeOut(ctx.io.stdout, `mnemo engine stopped (${result.reason.replace('_', ' ')}).\n`);
  } finally {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
    setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_GRACE_MS).unref();
  }
}
