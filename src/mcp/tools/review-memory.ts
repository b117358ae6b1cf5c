import { z } from 'zod';

import { processAuthor } from '../../app/open-app.js';
import { MemoryError } from '../../core/errors.js';
import type { Memory } from '../../core/memory.js';
import { flattenField } from '../../core/render/sanitise-text.js';
import { clusterForReview } from '../../review/cluster-review.js';
import { decideReview, reviewActor } from '../../review/review-decision.js';
import { isReadableBy } from '../../store/reader-scope.js';
import { readScope, visibleMemory } from '../memory-access.js';
import { choiceOf, reviewQuestion } from '../review-question.js';
import { memoryIdArg } from '../schemas.js';
import { defineTool, type ToolContext } from '../tool.js';

const NO_ELICITATION =
  'This client cannot ask the user directly (it did not declare MCP elicitation), so nothing was asked and the memory stays held. ' +
  'Tell the user to review it themselves: `mnemo review`, then `mnemo approve <id>` or `mnemo reject <id>`, or the web viewer (`mnemo ui`).';

/** The actor of a decision made through `client`: `mcp-elicitation:<client>:<OS user>`. */
export function elicitationActor(client: string): string {
  return reviewActor(`mcp-elicitation:${flattenField(client, 'unknown-client')}`);
}

const outcome = z.object({
  /** The memory asked about, or null when nothing awaits review. */
  id: z.string().nullable(),
  /** The client's answer: accept, decline, cancel; `no_answer` when the question failed or timed out. */
  answer: z.enum(['accept', 'decline', 'cancel', 'no_answer']).nullable(),
  /** Its review state afterwards. */
  quarantine: z.string().nullable(),
  /** Memories of this project still awaiting review. */
  remaining: z.number().int(),
});
type Outcome = z.output<typeof outcome>;

/**
 * `review_memory`: puts one held memory to the client's user through MCP elicitation, which the client
 * shows its user, not its model (threat model W4, W5: a model's `remember` is not the user, and neither
 * is its tool call). The arguments only choose which memory to ask about; the decision is the person's
 * answer, and only an accepted answer choosing "approve" approves (the form's default leaves it held).
 * Without the capability it asks nothing and names the human channels. Members of a fragment cluster
 * are reviewed as one with every member shown, which a one-memory question cannot do, so they are left
 * to those channels too. The model gets ids and states, never the memory text.
 */
export const reviewMemoryTool = defineTool({
  name: 'review_memory',
  title: 'Ask the user to review a held memory',
  description: [
    "Ask the user, in the client's own prompt, whether to approve a memory held for review (a quarantined web capture, or one saved in a tainted session). The user sees the memory and decides: approve, reject, or leave it held. You cannot approve it yourself; the arguments only choose which memory to show.",
    'Use when: the user asks to review or approve pending memories from here. Without an id it asks about the newest held memory of the project; call it again for the next one.',
    'Do not use when: the user did not ask; to change a memory (use supersede_memory); or when the client cannot ask its user (the tool then says to use `mnemo review` or the web viewer).',
  ].join('\n'),
  input: z.looseObject({
    id: memoryIdArg
      .optional()
      .describe(
        'Memory id of a held memory (list_memories with quarantine "pending"); omit for the newest.',
      ),
  }),
  output: outcome,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(ctx, args) {
    const claims = Object.keys(args).filter((key) => key !== 'id');
    // `approve`, `decision`, `action`...: a model cannot answer for the user. Names only reach the log.
    if (claims.length > 0) ctx.log.warn('mcp review claims ignored', { claims });
    const person = ctx.person();
    if (person === null) throw new MemoryError('UNSUPPORTED', NO_ELICITATION);
    const memory = args.id === undefined ? await newestHeld(ctx) : await heldMemory(ctx, args.id);
    if (memory === undefined) {
      return reply(
        { id: null, answer: null, quarantine: null, remaining: 0 },
        'Nothing awaits review in this project.',
      );
    }
    await refuseCluster(ctx, memory);
    let answer: Outcome['answer'];
    let choice = choiceOf(undefined);
    try {
      const result = await person.ask(reviewQuestion(ctx, memory));
      answer = result.action;
      if (result.action === 'accept') choice = choiceOf(result.content);
    } catch (error) {
      ctx.log.warn('mcp review question unanswered', { id: memory.id, error: String(error) });
      answer = 'no_answer';
    }
    const actor = elicitationActor(person.client);
    const decided = choice === 'keep' ? undefined : await decide(ctx, memory, choice, actor);
    const state = decided ?? (await ctx.app.store.getMemory(memory.id)) ?? memory;
    ctx.log.info('mcp review answered', {
      id: memory.id,
      answer,
      choice,
      decided: decided !== undefined,
      actor,
    });
    const structured = {
      id: memory.id,
      answer,
      quarantine: state.quarantine,
      remaining: await countHeld(ctx),
    };
    return reply(structured, answerText(memory, answer, choice, decided));
  },
});

function reply(structured: Outcome, text: string): { structured: Outcome; text: string } {
  const more =
    structured.remaining === 0
      ? ''
      : ` ${structured.remaining} still await review in this project.`;
  return { structured, text: structured.id === null ? text : `${text}${more}` };
}

function answerText(
  memory: Memory,
  answer: Outcome['answer'],
  choice: string,
  decided: Memory | undefined,
): string {
  if (decided?.quarantine === 'approved') {
    return `The user approved memory ${memory.id}. Its origin (${memory.origin}) is unchanged.`;
  }
  if (decided?.quarantine === 'rejected') return `The user rejected memory ${memory.id}.`;
  if (choice !== 'keep') {
    return `The user answered, but memory ${memory.id} was decided elsewhere meanwhile or joined a fragment cluster; nothing changed. \`mnemo review\` shows it.`;
  }
  const why =
    answer === 'no_answer'
      ? 'the question got no answer'
      : answer === 'accept'
        ? 'the user chose to leave it held'
        : `the user ${answer === 'decline' ? 'declined' : 'dismissed the question'}`;
  return `Memory ${memory.id} is still held for review: ${why}.`;
}

/** The memory the model named, when visible, readable by this user and held. */
async function heldMemory(ctx: ToolContext, id: string): Promise<Memory> {
  const memory = await visibleMemory(ctx, id);
  if (!isReadableBy(memory, readerOf(ctx))) {
    // Another author's private memory answers like an unknown id (R4).
    throw new MemoryError(
      'NOT_FOUND',
      `No memory ${memory.id} in this project or among the global memories.`,
    );
  }
  if (memory.quarantine !== 'pending') {
    throw new MemoryError(
      'CONFLICT',
      `Memory ${memory.id} is not held for review (state ${memory.quarantine}); there is nothing to ask the user.`,
    );
  }
  return memory;
}

async function newestHeld(ctx: ToolContext): Promise<Memory | undefined> {
  const scope = await readScope(ctx);
  const [memory] = await ctx.app.store.listMemories({ scope, quarantine: ['pending'], limit: 1 });
  return memory;
}

async function countHeld(ctx: ToolContext): Promise<number> {
  return ctx.app.store.countMemories({ scope: await readScope(ctx), quarantine: ['pending'] });
}

function readerOf(ctx: ToolContext): string {
  return processAuthor(ctx.app.config).user;
}

async function refuseCluster(ctx: ToolContext, memory: Memory): Promise<void> {
  const cluster = await clusterForReview(ctx.app.store, memory.id);
  if (cluster === undefined) return;
  throw new MemoryError(
    'CONFLICT',
    `Memory ${memory.id} is one of ${cluster.stored.length} fragments held together as cluster ${cluster.clusterId}, which the user reviews as one with every member shown. ` +
      'Ask them to use `mnemo review` or the web viewer; nothing was asked.',
  );
}

/**
 * Applies the person's choice, if the memory is still as they saw it: held, the same text, and in no cluster (a cluster
 * formed meanwhile would make one answer decide memories they never saw). Undefined when it is not.
 */
async function decide(
  ctx: ToolContext,
  seen: Memory,
  choice: 'approve' | 'reject',
  actor: string,
): Promise<Memory | undefined> {
  const now = await ctx.app.store.getMemory(seen.id);
  if (now?.quarantine !== 'pending' || now.contentHash !== seen.contentHash) return undefined;
  if ((await clusterForReview(ctx.app.store, seen.id)) !== undefined) return undefined;
  const target = choice === 'approve' ? 'approved' : 'rejected';
  const result = await decideReview({ store: ctx.app.store, log: ctx.log }, seen.id, target, actor);
  return result.memory;
}
