import { z } from 'zod';

import { describeWrite, writeAgentMemory } from '../agent-write.js';
import { contentArg, tagsArg, writeReportSchema } from '../schemas.js';
import { defineTool } from '../tool.js';

const DECLARED = ['content', 'tags'] as const;

/** `checkpoint`: where the current task stands, as a `checkpoint` memory; same origin rules as `remember`. */
export const checkpointTool = defineTool({
  name: 'checkpoint',
  title: 'Checkpoint task state',
  description: [
    'Save where the current task stands so a later session, or this one after context compaction, can resume: the goal, what is done, what is next, open questions, key files.',
    'Use when: pausing a multi-step task, before a long or risky operation, or when the context is getting long.',
    'Do not use when: recording a lasting decision or fact (use remember) or for a one-step task.',
    'Write it for a reader with no context. Checkpoints are saved with kind "checkpoint" and follow the same review rules as remember.',
  ].join('\n'),
  input: z.looseObject({
    content: contentArg.describe('Goal, done, next steps, open questions, key files.'),
    tags: tagsArg.optional().describe('Short topic tags for the task.'),
  }),
  output: writeReportSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(ctx, args) {
    const outcome = await writeAgentMemory(ctx, 'checkpoint', args, 'checkpoint', DECLARED);
    return describeWrite(outcome, 'Checkpoint saved');
  },
});
