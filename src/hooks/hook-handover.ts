/**
 * What the executable's forwarding client (forward-hook.ts, in cli/bin.ts) hands the hook's full path
 * in the same process: the stdin it already read, what it learnt of the engine, the deadline it
 * started, and for another client's hook where its output goes. Kept on `globalThis` under a registered
 * symbol because the full path runs from another bundled copy of these modules (a hook bundle, or the
 * CLI when no bundle loads).
 */
import type { CappedBytes } from './read-capped.js';

export interface HookHandover {
  input?: Promise<CappedBytes>;
  /** As RunHookOptions.engine. */
  engine?: 'skip' | 'unanswered';
  /** Where the hook's output goes instead of stdout: a client hook's, renamed for its event or dropped. */
  stdout?: { write(text: string): unknown };
  /** When the hook's deadline passes (ms since the epoch): the forward's time counts against it. */
  deadlineAt: number;
}

const KEY = Symbol.for('mnemo.hookHandover');
type Holder = Record<typeof KEY, HookHandover | undefined>;

/** Leaves `handover` for the full path of this process's hook. */
export function handOverHook(handover: HookHandover): void {
  (globalThis as unknown as Holder)[KEY] = handover;
}

/** The handover left by the forwarding client, once; undefined when the hook was not forwarded. */
export function takeHookHandover(): HookHandover | undefined {
  const holder = globalThis as unknown as Holder;
  const handover = holder[KEY];
  holder[KEY] = undefined;
  return handover;
}
