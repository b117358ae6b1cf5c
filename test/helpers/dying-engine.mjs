// A real engine from the built dist/ that ends its own process (SIGKILL, no cleanup) right after it has
// applied a handed-off or forwarded capture and before it answers: the crash window of the capture
// hand-off.
// Prints `ready` once its socket accepts requests. Environment: the test home's (MNEMO_HOME...).
import { loadConfig } from '../../dist/config/config.js';
import { runEngine } from '../../dist/engine/run-engine.js';
import { answerForwardedHook } from '../../dist/hooks/engine-hook.js';
import { createLogger } from '../../dist/log/log.js';

const config = loadConfig({ env: process.env });
const log = createLogger({ file: config.logFile, level: 'info', clock: { now: () => new Date() } });
await runEngine({
  config,
  log,
  idleExitMs: 0,
  hook: answerForwardedHook,
  onReady: () => process.stdout.write('ready\n'),
  capture: { afterApply: () => process.kill(process.pid, 'SIGKILL') },
});
