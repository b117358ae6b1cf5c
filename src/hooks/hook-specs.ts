/**
 * The hook subcommands mnemo implements, each a schema plus a thin handler defined in its own entry
 * module (`hooks/entry/<name>.ts`), so a hook process loads only its own event's code. The executable's
 * fast path loads an entry's bundle directly (cli/main.ts); this module is the route through the CLI.
 */
import { HOOK_NAMES, type HookName, isHookName } from './hook-names.js';
import type { HookSpec } from './run-hook.js';

export { HOOK_NAMES, type HookName };

/** What every entry module exports. */
export interface HookEntry {
  readonly spec: HookSpec<never>;
  /** Runs the hook on the process's stdin and stdout; always resolves to exit code 0. */
  main(): Promise<number>;
}

/** The entry of a subcommand, or undefined for a name mnemo does not implement. */
export async function loadHookEntry(name: string): Promise<HookEntry | undefined> {
  if (!isHookName(name)) return undefined;
  return (await import(`./entry/${name}.js`)) as HookEntry;
}
