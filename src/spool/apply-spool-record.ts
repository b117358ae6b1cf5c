/**
 * Applies one spool record through the live hook code: a tool result goes through `applyToolResult`
 * (taint, capture decision, write gate, exactly as if the hook had reached the store), a refused payload
 * through the same fail-closed taint as a live refusal. Origin and privileges come from the record's
 * channel fields (event, tool name), recomputed with the current config; the text grants nothing.
 */
import type { App } from '../app/open-app.js';
import { taintRefusedToolResult } from '../hooks/hook-specs.js';
import { applyToolResult, type ToolResultPlan } from '../hooks/post-tool-use.js';
import type { SpoolRecord, ToolResultRecord } from './spool-record.js';

function planOf(record: ToolResultRecord): ToolResultPlan {
  return {
    event: record.event,
    toolName: record.toolName,
    sessionId: record.sessionId,
    ...(record.interrupted === undefined ? {} : { interrupted: record.interrupted }),
    capture: record.capture,
  };
}

/** Applies `record` to the store. Throws what the store throws (STORE_BUSY: the drain stops and resumes). */
export async function applySpoolRecord(record: SpoolRecord, app: App): Promise<void> {
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
