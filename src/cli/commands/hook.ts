import { loadHookEntry } from '../../hooks/hook-specs.js';
import { reportUnknownHook, runHook } from '../../hooks/run-hook.js';
import type { CliContext } from '../cli-context.js';

/**
 * `mnemo hook <event>`: the Claude Code hook entry point; `mnemo hook --client <id> <event>` the entry
 * point of another client's hooks (hooks/clients). Never fails: whatever happens is logged to
 * `$MNEMO_HOME/logs/mnemo.log`, stdout carries only deliberate hook output, and the exit code is 0. The
 * executable usually takes its fast path (cli/main.ts) and never reaches this command.
 */
export async function hook(ctx: CliContext, event: string, client?: string): Promise<void> {
  if (client !== undefined) {
    const { runClientHook } = await import('../../hooks/clients/run-client-hook.js');
    await runClientHook(client, event, {
      stdin: ctx.io.stdin,
      stdout: ctx.io.stdout,
      env: ctx.io.env,
    });
    return;
  }
  const entry = await loadHookEntry(event);
  if (entry === undefined) {
    reportUnknownHook(event, ctx.io.env);
    return;
  }
  await runHook(entry.spec, { stdin: ctx.io.stdin, stdout: ctx.io.stdout, env: ctx.io.env });
}
