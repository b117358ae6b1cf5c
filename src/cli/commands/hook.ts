import { hookSpec } from '../../hooks/hook-specs.js';
import { reportUnknownHook, runHook } from '../../hooks/run-hook.js';
import type { CliContext } from '../cli-context.js';

/**
 * `mnemo hook <event>`: the Claude Code hook entry point. Never fails: whatever happens is logged to
 * `$MNEMO_HOME/logs/mnemo.log`, stdout carries only deliberate hook output, and the exit code is 0.
 */
export async function hook(ctx: CliContext, event: string): Promise<void> {
  const spec = hookSpec(event);
  if (spec === undefined) {
    reportUnknownHook(event, ctx.io.env);
    return;
  }
  await runHook(spec, { stdin: ctx.io.stdin, stdout: ctx.io.stdout, env: ctx.io.env });
}
