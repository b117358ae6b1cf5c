/**
 * Applies one spool record through the capture module (src/capture), as the live hook does: a tool
 * result goes through `applyToolResult` (taint, capture decision, write gate, exactly as if the hook had
 * reached the store), a refused payload
 * through the same fail-closed taint as a live refusal. Origin and privileges come from the record's
 * channel fields (event, tool name), recomputed with the current config; the text grants nothing.
 */
import type { App } from '../app/open-app.js';
import { applyToolResult, taintRefusedToolResult } from '../capture/apply-tool-result.js';
import type { ToolResultPlan } from '../capture/plan-tool-result.js';
import type { SpoolEntry } from './spool-record.js';

function planOf(record: Extract<SpoolEntry, { type: 'tool_result' }>): ToolResultPlan {
  return {
    event: record.event,
    toolName: record.toolName,
    sessionId: record.sessionId,
    ...(record.interrupted === undefined ? {} : { interrupted: record.interrupted }),
    capture: record.capture,
  };
}

/** Applies `record` (a spool line, or an entry handed to the engine) to the store. Throws what the store throws (STORE_BUSY: the drain stops and resumes). */
export async function applySpoolRecord(record: SpoolEntry, app: App): Promise<void> {
  switch (record.type) {
    case 'tool_result':
      await applyToolResult(planOf(record), app);
      return;
    case 'refused_tool_result':
      await taintRefusedToolResult(
        record.sessionId === null ? {} : { session_id: record.sessionId },
        app,
      );
      return;
  }
}
