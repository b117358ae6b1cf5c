import { z } from 'zod';

import { reverifyMemory } from '../../anchors/reverify.js';
import { reverifyClaimText } from '../../core/anchors/reverify-claim.js';
import { classifyOrigin } from '../../core/origin/classify-origin.js';
import { flattenNote } from '../../core/render/sanitise-text.js';
import { writePolicyFromConfig } from '../../write/write-policy.js';
import { agentChannel, originToolOf } from '../agent-write.js';
import { visibleMemory, writableProject } from '../memory-access.js';
import { memoryIdArg } from '../schemas.js';
import { defineTool } from '../tool.js';

/**
 * `reverify_memory`: the agent confirms that a stale memory still holds, after checking the code; its
 * anchors are re-taken from the files as they are now (a renamed file followed) and the audit trail
 * records the session and origin that vouched. The session's taint decides, as for writes: a tainted
 * session may not re-verify anything more trusted than itself (a web page must not make an outdated user
 * decision look current), and a call the PreToolUse hook did not see counts as tainted.
 */
export const reverifyMemoryTool = defineTool({
  name: 'reverify_memory',
  title: 'Re-verify a stale memory',
  description: [
    'Confirm that a memory flagged stale (a file it cites changed, moved or was deleted) still holds, after you checked the current code: it is re-anchored to the files as they are now and no longer flagged.',
    'Use when: recall or explain_memory shows a stale memory and you verified against the code that it is still true.',
    'Do not use when: you have not read the code it cites, or it no longer holds (use supersede_memory to correct it, or forget).',
  ].join('\n'),
  input: z.object({ id: memoryIdArg }),
  output: z.object({
    id: z.string(),
    origin: z.string(),
    before: z.object({ status: z.string(), label: z.string().nullable() }),
    anchors: z.array(z.object({ path: z.string(), kind: z.string() })),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(ctx, args) {
    const memory = await visibleMemory(ctx, args.id);
    const projectKey = await writableProject(ctx);
    const channel = await agentChannel(ctx, reverifyClaimText(memory.id));
    const origin = classifyOrigin(
      channel.envelope,
      writePolicyFromConfig(ctx.app.config).originConfig,
    );
    const { before, after } = await reverifyMemory(ctx.app, memory, {
      projectKey,
      dir: await ctx.projectDir(),
      actor: { origin, channel: originToolOf('reverify_memory'), sessionId: channel.sessionId },
    });
    // Paths come from the memory and from git: neutralised in the structured copy, absent from the text.
    const anchors = after.anchors.map((anchor) => ({
      path: flattenNote(anchor.path) ?? '',
      kind: anchor.kind,
    }));
    const files = anchors.filter((anchor) => anchor.kind === 'file').length;
    return {
      structured: {
        id: memory.id,
        origin,
        before: {
          status: before.status,
          label: before.label === null ? null : (flattenNote(before.label) ?? null),
        },
        anchors,
      },
      text: `Re-verified memory ${memory.id} (it was ${before.status}); anchored to ${files} ${files === 1 ? 'file' : 'files'} as they are now.`,
    };
  },
});
