/**
 * The subcommands of `mnemo hook`, mirroring the Claude Code event names in kebab-case (architecture
 * §2.3). Data only: the executable's hook fast path reads it before loading anything else, and each name
 * has one entry module in `hooks/entry/`, bundled into one file per hook by `npm run build`.
 */
export const HOOK_NAMES = [
  'post-tool-use',
  'post-tool-use-failure',
  'pre-tool-use',
  'session-start',
  'user-prompt-submit',
  'pre-compact',
  'session-end',
] as const;

/** A subcommand of `mnemo hook`. */
export type HookName = (typeof HOOK_NAMES)[number];

/** True for a hook subcommand mnemo implements. */
export function isHookName(name: string): name is HookName {
  return (HOOK_NAMES as readonly string[]).includes(name);
}
