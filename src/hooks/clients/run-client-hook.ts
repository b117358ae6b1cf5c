/**
 * `mnemo hook --client <id> <event>` in the CLI: the entry point of another client's hooks when the
 * executable's fast path (cli/client-hook-fast.ts) did not run them. The client's payload is mapped onto
 * the Claude Code envelope of the same meaning (plan-client-hook.ts) and run through mnemo's own hook of
 * that name (run-hook.ts), so the channel-origin rules, fail-closed allowlists, taint, capture policy,
 * redaction, spool and engine hand-off are the ones Claude Code gets. Never throws; exits 0; prints only
 * context the client reads.
 */
import { handOverHook, takeHookHandover } from '../hook-handover.js';
import { HOOK_MAX_INPUT_BYTES } from '../hook-limits.js';
import { loadHookEntry } from '../hook-specs.js';
import { readCapped } from '../read-capped.js';
import { reportUnknownHook, runHook } from '../run-hook.js';
import { clientStdout, planClientHook } from './plan-client-hook.js';

/** The process seams of a client hook. */
export interface ClientHookIo {
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

/** Runs one client hook; never throws, prints nothing it was not meant to. */
export async function runClientHook(
  client: string,
  event: string,
  io: ClientHookIo,
): Promise<void> {
  // The executable's fast path read stdin already when it did not run the hook itself (an unmapped
  // event, or no usable bundle); what else it handed over (the engine, the deadline) is runHook's.
  const handover = takeHookHandover();
  const input = await (handover?.input ?? readCapped(io.stdin, HOOK_MAX_INPUT_BYTES));
  const plan = planClientHook(client, event, input, io.env);
  const entry = plan.kind === 'run' ? await loadHookEntry(plan.hook) : undefined;
  if (plan.kind === 'ignore' || entry === undefined) {
    reportUnknownHook(plan.kind === 'ignore' ? plan.name : `${client}:${event}`, io.env);
    return;
  }
  // Back for runHook's deadline and engine; its `input` below, the mapped payload, wins over the handover's.
  if (handover !== undefined) handOverHook(handover);
  await runHook(entry.spec, {
    input: Promise.resolve(plan.input),
    stdout: clientStdout(plan, event, io.stdout),
    env: io.env,
  });
}
