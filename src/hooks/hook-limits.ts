/**
 * The limits every hook process works within, in one dependency-free module: the forwarding client
 * (forward-hook.ts) and the full hook path (run-hook.ts) read the same caps and the same deadline.
 */

/** Bytes of stdin kept; a larger payload is cut here, refused as invalid JSON and logged. */
export const HOOK_MAX_INPUT_BYTES = 8 * 1024 * 1024;
/** Deepest JSON nesting accepted. Real payloads nest < 10 levels; MCP results a few more. */
export const HOOK_MAX_JSON_DEPTH = 64;
/** The hook gives up after this long and exits 0 (Claude Code's own SessionEnd budget is 1.5 s too). */
export const HOOK_DEADLINE_MS = 1500;
/** Longest wait for the engine's answer to an injection. It answers in milliseconds; longer means busy. */
export const ENGINE_INJECT_WAIT_MS = 600;
/** Time kept for reading the store directly when the engine gave no answer to an injection. */
export const DIRECT_RESERVE_MS = 600;
/**
 * Longest wait for the engine's answer to a capture. Its answer follows one store write (a few ms); a
 * longer wait means a busy store or a wedged engine, and the hook then spools the capture itself.
 */
export const ENGINE_HANDOFF_WAIT_MS = 1000;
/** Time kept back after an unanswered capture for spooling and exiting before the deadline. */
export const HANDOFF_MARGIN_MS = 200;

/**
 * `MNEMO_HOOK_DEADLINE_MS` (100–60000) replaces the default deadline. For diagnosis on a slow machine and
 * for end-to-end tests, whose outcomes must not depend on how loaded the test host is; the deadline
 * behaviour itself is tested with an injected value.
 */
export function hookDeadlineFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['MNEMO_HOOK_DEADLINE_MS'];
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value >= 100 && value <= 60_000 ? value : undefined;
}
