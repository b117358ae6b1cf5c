import { z } from 'zod';

import { MemoryError } from '../../core/errors.js';
import { classifyOrigin } from '../../core/origin/classify-origin.js';
import { isMoreTrusted, parseOriginClass } from '../../core/origin/origin-class.js';
import { supersedeMemory } from '../../write/supersede-memory.js';
import { writeDepsFrom } from '../../write/write-policy.js';
import { agentChannel, claimsOf, describeWrite, originToolOf } from '../agent-write.js';
import { visibleMemory, writableProject } from '../memory-access.js';
import {
  contentArg,
  memoryIdArg,
  tagsArg,
  writableKindArg,
  writeReportSchema,
} from '../schemas.js';
import { defineTool } from '../tool.js';

const DECLARED = ['id', 'content', 'kind', 'tags'] as const;

/**
 * `supersede_memory`: a new memory replaces an old one of this project; the old one stays readable by
 * id (history) but leaves recall and injection. The replacement has the writer's origin (`agent` or
 * `agent_tainted`), never the old memory's. A tainted session may not replace anything more trusted
 * than itself: otherwise a web page could retire what the user said by having it "corrected".
 */
export const supersedeMemoryTool = defineTool({
  name: 'supersede_memory',
  title: 'Replace a memory',
  description: [
    'Replace an existing memory of this project with a corrected or updated one. The old memory is kept in history (get_memory, explain_memory) but no longer recalled or injected.',
    'Use when: a remembered fact, decision or convention changed or turned out wrong, e.g. "use npm test" became "use pnpm test".',
    'Do not use when: adding an unrelated fact (use remember), or the old memory is simply obsolete with no replacement (use forget).',
    'Give the full new text, self-contained; it does not inherit the old text, pin or global visibility.',
  ].join('\n'),
  input: z.looseObject({
    id: memoryIdArg.describe('Id of the memory being replaced.'),
    content: contentArg.describe('The replacement, self-contained.'),
    kind: writableKindArg.optional().describe('Kind of the replacement (default: the old kind).'),
    tags: tagsArg.optional().describe('Tags of the replacement (default: none).'),
  }),
  output: writeReportSchema.extend({ replaced: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(ctx, args) {
    const projectKey = await writableProject(ctx);
    const previous = await visibleMemory(ctx, args.id);
    if (previous.visibility === 'global') {
      throw new MemoryError(
        'INVALID_INPUT',
        `Memory ${previous.id} is global; only a person can change global memories (mnemo CLI or web UI). Use remember to save a project-level correction.`,
      );
    }
    if (previous.supersededBy !== null) {
      throw new MemoryError(
        'CONFLICT',
        `Memory ${previous.id} was already replaced by ${previous.supersededBy}; supersede that one instead.`,
      );
    }
    const channel = await agentChannel(ctx, args.content);
    const deps = writeDepsFrom(ctx.app);
    const origin = classifyOrigin(channel.envelope, deps.policy.originConfig);
    const target = parseOriginClass(previous.origin);
    if (origin === 'agent_tainted' && isMoreTrusted(target, origin)) {
      ctx.log.warn('mcp supersede refused', { id: previous.id, target, origin });
      throw new MemoryError(
        'CONFLICT',
        `Not replaced: untrusted content entered this session since the user's last message, so a memory written now (origin agent_tainted) cannot replace memory ${previous.id} (origin ${target}). Use remember to save the correction for the user's review, and tell the user.`,
      );
    }
    const outcome = await supersedeMemory(deps, previous, {
      envelope: channel.envelope,
      content: args.content,
      projectKey,
      kind: args.kind,
      tags: args.tags,
      sessionId: channel.sessionId,
      originTool: originToolOf('supersede_memory'),
      claims: claimsOf(args, DECLARED),
      workingDir: await ctx.projectDir(),
    });
    const reply = describeWrite(outcome, `Replaced ${previous.id}; saved`);
    return { structured: { ...reply.structured, replaced: previous.id }, text: reply.text };
  },
});
