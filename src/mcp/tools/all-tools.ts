/**
 * Every tool the server exposes, in `tools/list` order. Adding one here makes it public API and prompt
 * text: the snapshot in `create-mcp-server.test.ts` must be updated on purpose. No tool approves a
 * quarantined memory on the model's word: `review_memory` asks the client's user through elicitation
 * and acts only on their answer. Applying edits of the project page is absent, since it would write user
 * memories (`update_project_page` only refreshes it).
 */
import type { McpTool } from '../tool.js';
import { checkpointTool } from './checkpoint.js';
import { explainMemoryTool } from './explain-memory.js';
import { forgetTool } from './forget.js';
import { getMemoryTool } from './get-memory.js';
import { listMemoriesTool } from './list-memories.js';
import { memoryStatsTool } from './memory-stats.js';
import { pinMemoryTool } from './pin-memory.js';
import { recallTool } from './recall.js';
import { rememberTool } from './remember.js';
import { reverifyMemoryTool } from './reverify-memory.js';
import { reviewMemoryTool } from './review-memory.js';
import { supersedeMemoryTool } from './supersede-memory.js';
import { updateProjectPageTool } from './update-project-page.js';

export const allTools: readonly McpTool[] = [
  rememberTool,
  recallTool,
  getMemoryTool,
  forgetTool,
  supersedeMemoryTool,
  listMemoriesTool,
  pinMemoryTool,
  checkpointTool,
  memoryStatsTool,
  explainMemoryTool,
  reverifyMemoryTool,
  updateProjectPageTool,
  reviewMemoryTool,
];
