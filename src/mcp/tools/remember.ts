import { z } from 'zod';

import { describeWrite, writeAgentMemory } from '../agent-write.js';
import { contentArg, tagsArg, writableKindArg, writeReportSchema } from '../schemas.js';
import { defineTool } from '../tool.js';

const DECLARED = ['content', 'kind', 'tags'] as const;

/**
 * `remember`: the model saves a memory in its project. Origin `agent`, or `agent_tainted` (held for
 * review, never injected) when untrusted content entered the session since the user's last prompt or
 * the session cannot be identified. Undeclared arguments (`force`, `origin`, `write_class`, `global`,
 * `pinned`...) pass the schema so that they can be logged as claims; they grant nothing.
 */
export const rememberTool = defineTool({
  name: 'remember',
  title: 'Remember',
  description: [
    'Save one durable memory for this project: a decision and its reason, a fix for an error, a convention, a preference the user stated, a fact about the codebase that is not obvious from the files.',
    'Use when: something was settled that a future session should know, the user asks you to remember something, or you solved a problem worth not solving twice.',
    "Do not use when: the text is transient (task progress: use checkpoint), already in the repository's files or docs, a secret, or copied from a web page or tool output (say what you concluded instead). To correct an existing memory use supersede_memory.",
    "One fact per memory, self-contained, under a few sentences. Secrets are redacted. Memories saved after reading untrusted content are held for the user's review.",
  ].join('\n'),
  input: z.looseObject({
    content: contentArg.describe('The memory, self-contained: what and why.'),
    kind: writableKindArg.optional().describe('What sort of memory (default "note").'),
    tags: tagsArg.optional().describe('Short topic tags, e.g. ["build", "ci"].'),
  }),
  output: writeReportSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(ctx, args) {
    const outcome = await writeAgentMemory(ctx, 'remember', args, args.kind, DECLARED);
    return describeWrite(outcome, 'Saved');
  },
});
