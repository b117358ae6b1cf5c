/**
 * The text a `reverify_memory` call's remember claim is keyed by. The PreToolUse hook records a claim for
 * each of mnemo's session-sensitive tools so the MCP server can learn the call's session and its taint;
 * a re-verification carries no content, so the claim names the memory it vouches for. Hook and server
 * derive it with this one function. Pure.
 */

/** `mnemo reverify <ID>`, the id upper-cased as ids are stored. */
export function reverifyClaimText(id: string): string {
  return `mnemo reverify ${id.trim().toUpperCase()}`;
}
