import { z } from 'zod';

import { MemoryError } from '../../core/errors.js';
import { injectionEligibility } from '../../core/gate/injection-eligibility.js';
import { WITHHELD_MEANING } from '../../review/meanings.js';
import { visibleMemory } from '../memory-access.js';
import { memoryIdArg } from '../schemas.js';
import { defineTool } from '../tool.js';

/**
 * `pin_memory`: pinning is an injection privilege (a pinned memory is injected ahead of others), so only
 * a memory that is already eligible for proactive injection may be pinned: origin allowlisted (user or
 * untainted agent), not tainted, not held for review or rejected, not replaced. Global memories belong
 * to people; their pins change only through human channels. Unpinning is always allowed.
 */
export const pinMemoryTool = defineTool({
  name: 'pin_memory',
  title: 'Pin or unpin a memory',
  description: [
    'Pin a memory of this project so it is injected into every new session ahead of others, or unpin it (pinned: false).',
    'Use when: the user asks to always keep something in mind, or a convention must never be missed (e.g. "never push to main").',
    'Do not use when: the memory is merely useful (recall finds it); pin few memories. Only memories eligible for automatic injection can be pinned: not ones held for review, saved in a tainted session, or captured from web or tool output.',
  ].join('\n'),
  input: z.object({
    id: memoryIdArg,
    pinned: z.boolean().optional().describe('true to pin (default), false to unpin.'),
  }),
  output: z.object({ id: z.string(), pinned: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(ctx, args) {
    const memory = await visibleMemory(ctx, args.id);
    const pinned = args.pinned ?? true;
    if (memory.visibility === 'global') {
      throw new MemoryError(
        'INVALID_INPUT',
        `Memory ${memory.id} is global; only a person can pin or unpin global memories (mnemo CLI or web UI).`,
      );
    }
    if (pinned) {
      const eligibility = injectionEligibility(memory);
      if (!eligibility.eligible) {
        ctx.log.warn('mcp pin refused', { id: memory.id, reasons: eligibility.reasons });
        throw new MemoryError(
          'INVALID_INPUT',
          `Memory ${memory.id} cannot be pinned: ${eligibility.reasons.map((r) => WITHHELD_MEANING[r]).join('; ')}. Only the user can vouch for it.`,
        );
      }
    }
    const updated =
      memory.pinned === pinned ? memory : await ctx.app.store.updateMemory(memory.id, { pinned });
    return {
      structured: { id: updated.id, pinned: updated.pinned },
      text: `Memory ${updated.id} is ${updated.pinned ? 'pinned' : 'no longer pinned'}.`,
    };
  },
});
