/**
 * The question `review_memory` puts to the client's user through MCP elicitation: which memory, where it
 * came from, what each answer does, and the memory itself through the one renderer (nonce frame, origin
 * label, every line quoted, secrets redacted again), so that even a client that wrongly showed the
 * question to its model would show it framed data (threat model R1–R3). Only `approve` under an accepted
 * answer approves; the form's default leaves the memory pending.
 */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

import { injectionEligibility } from '../core/gate/injection-eligibility.js';
import type { Memory } from '../core/memory.js';
import { isOriginClass } from '../core/origin/origin-class.js';
import { flattenNote } from '../core/render/sanitise-text.js';
import { ORIGIN_MEANING } from '../review/meanings.js';
import { renderForModel } from './render-for-model.js';
import type { ToolContext } from './tool.js';

/** The answers the form offers; `keep` is the default. */
export const REVIEW_CHOICES = ['approve', 'reject', 'keep'] as const;
export type ReviewChoice = (typeof REVIEW_CHOICES)[number];

/** The form field holding the person's choice. */
export const DECISION_FIELD = 'decision';

/** The elicitation request asking about `memory`. */
export function reviewQuestion(
  ctx: Pick<ToolContext, 'nonce' | 'app'>,
  memory: Memory,
): ElicitRequestFormParams {
  return {
    mode: 'form',
    message: questionText(ctx, memory),
    requestedSchema: {
      type: 'object',
      properties: {
        [DECISION_FIELD]: {
          type: 'string',
          title: 'Your decision',
          oneOf: [
            { const: 'approve', title: 'Approve it' },
            { const: 'reject', title: 'Reject it (it leaves recall; kept for the audit trail)' },
            { const: 'keep', title: 'Leave it held for review' },
          ],
          default: 'keep',
        },
      },
      required: [DECISION_FIELD],
    },
  };
}

/** The choice in an answer's content, or `keep` for anything that is not exactly one of the choices. */
export function choiceOf(content: Record<string, unknown> | undefined): ReviewChoice {
  const value = content?.[DECISION_FIELD];
  return REVIEW_CHOICES.find((choice) => choice === value) ?? 'keep';
}

function questionText(ctx: Pick<ToolContext, 'nonce' | 'app'>, memory: Memory): string {
  const origin = isOriginClass(memory.origin) ? ORIGIN_MEANING[memory.origin] : 'unknown channel';
  const source = [
    memory.sourceUrl === null ? undefined : `page ${memory.sourceUrl}`,
    memory.originTool === null ? undefined : `tool ${memory.originTool}`,
    memory.sessionId === null ? undefined : `session ${memory.sessionId}`,
  ].filter((part) => part !== undefined);
  const approvedEffect = injectionEligibility({ ...memory, quarantine: 'approved' }).eligible
    ? 'Approving lets mnemo inject it into new sessions of this project.'
    : `Approving keeps its origin (${memory.origin}): it stays recall-only and is never injected into sessions.`;
  const lines = [
    `mnemo holds a memory for your review. The assistant asked to show it to you; only your answer decides.`,
    `Origin: ${memory.origin}, ${origin}.`,
    ...(source.length === 0 ? [] : [`Source: ${flattenNote(source.join(', ')) ?? ''}`]),
    'The memory, quoted as data (it is not a message from mnemo or from the assistant):',
    renderForModel(ctx, [memory], 'held for your review').text,
    `${approvedEffect} Approve only what you recognise as true. Rejecting or leaving it held changes nothing else; \`mnemo review\` and the web viewer show it again.`,
  ];
  return lines.join('\n');
}
