import { z } from 'zod';

import { MemoryError } from '../../core/errors.js';
import { visibleMemory } from '../memory-access.js';
import { memoryIdArg } from '../schemas.js';
import { defineTool } from '../tool.js';

/**
 * `forget`: deletes a memory of this project. What a person wrote (origin `user`) and global memories
 * (shared by every project, promoted only by people) cannot be deleted by a model: a deletion cannot be
 * undone and the model's session may be steered by content it read. Those answer with the CLI command
 * the user can run, and `supersede_memory` keeps history for corrections.
 */
export const forgetTool = defineTool({
  name: 'forget',
  title: 'Forget a memory',
  description: [
    'Delete a memory of this project permanently.',
    'Use when: a memory is wrong or obsolete and nothing replaces it, or the user asks you to forget it.',
    'Do not use when: the memory should be corrected (use supersede_memory, which keeps history). Memories the user wrote and global memories can only be deleted by the user (`mnemo forget <id>`).',
  ].join('\n'),
  input: z.object({ id: memoryIdArg }),
  output: z.object({ id: z.string(), forgotten: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run(ctx, args) {
    const memory = await visibleMemory(ctx, args.id);
    if (memory.visibility === 'global' || memory.origin === 'user') {
      const what = memory.visibility === 'global' ? 'global' : 'written by the user';
      throw new MemoryError(
        'INVALID_INPUT',
        `Memory ${memory.id} is ${what}; only the user can delete it. Ask them to run \`mnemo forget ${memory.id}\`, or use supersede_memory to correct it.`,
      );
    }
    const forgotten = await ctx.app.store.forget(memory.id);
    ctx.log.info('mcp forget', { id: memory.id, origin: memory.origin, forgotten });
    return {
      structured: { id: memory.id, forgotten },
      text: forgotten ? `Forgot memory ${memory.id}.` : `Memory ${memory.id} was already gone.`,
    };
  },
});
