/**
 * A person's changes to one memory through a human channel (the web viewer): its text, tags and kind in
 * place, its pin, a replacement that keeps the old one in history, or its deletion. Each change is
 * audited with the actor who made it. Only human channels call this: no MCP tool and no hook reaches it.
 *
 * Nothing here raises trust. Edited text passes the same secret redaction as every write and the memory
 * keeps its origin (a person fixing a typo in a web capture does not make it theirs); a replacement goes
 * through the write service as a new write from the `web` channel, so it is the person's own memory,
 * gated like any other. A pin is an injection privilege and is refused for a memory that could not be
 * injected anyway, with the reason.
 */
import { MemoryError } from '../core/errors.js';
import { injectionEligibility } from '../core/gate/injection-eligibility.js';
import type { Memory, MemoryKind } from '../core/memory.js';
import { redactSecrets } from '../core/redact/redact-secrets.js';
import { supersedeMemory } from '../write/supersede-memory.js';
import type { WriteDeps, WriteOutcome } from '../write/write-types.js';
import { WITHHELD_MEANING } from './meanings.js';

export interface UserEdit {
  content?: string;
  tags?: readonly string[];
  kind?: MemoryKind;
}

/** Changes text, tags or kind in place; the text is redacted first. Returns the memory as stored. */
export async function editInPlace(
  deps: Pick<WriteDeps, 'store' | 'log'>,
  memory: Memory,
  edit: UserEdit,
  actor: string,
): Promise<{ memory: Memory; redactions: number }> {
  let content: string | undefined;
  let redactions = 0;
  if (edit.content !== undefined) {
    const redacted = redactSecrets(edit.content);
    content = redacted.text.trim();
    redactions = redacted.redactions;
    if (content.length === 0) {
      throw new MemoryError('INVALID_INPUT', 'The text is empty once secrets are removed.');
    }
  }
  const updated = await deps.store.updateMemory(memory.id, {
    ...(content === undefined || content === memory.content ? {} : { content }),
    ...(edit.tags === undefined ? {} : { tags: edit.tags }),
    ...(edit.kind === undefined ? {} : { kind: edit.kind }),
    actor,
  });
  deps.log.info('memory edited', { id: memory.id, actor, redactions });
  return { memory: updated, redactions };
}

/** Pins or unpins; a pin needs a memory that may be injected at all. */
export async function setPinned(
  deps: Pick<WriteDeps, 'store' | 'log'>,
  memory: Memory,
  pinned: boolean,
  actor: string,
): Promise<Memory> {
  if (pinned) {
    const eligibility = injectionEligibility(memory);
    if (!eligibility.eligible) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Memory ${memory.id} cannot be pinned: ${eligibility.reasons.map((r) => WITHHELD_MEANING[r]).join('; ')}. To keep what it says, replace it with your own text (Supersede).`,
      );
    }
  }
  if (memory.pinned === pinned) return memory;
  const updated = await deps.store.updateMemory(memory.id, { pinned, actor });
  deps.log.info(pinned ? 'memory pinned' : 'memory unpinned', { id: memory.id, actor });
  return updated;
}

/**
 * Replaces `previous` with `content` written by the person: a new memory through the write service
 * (`web` channel), the old one kept in history. Refusals are `reject` outcomes.
 */
export async function replaceWith(
  deps: WriteDeps,
  previous: Memory,
  content: string,
  actor: string,
  workingDir: string | null,
): Promise<WriteOutcome> {
  if (previous.supersededBy !== null) {
    throw new MemoryError(
      'CONFLICT',
      `Memory ${previous.id} was already replaced by ${previous.supersededBy}; edit that one.`,
    );
  }
  const outcome = await supersedeMemory(deps, previous, {
    envelope: { channel: 'web' },
    content,
    projectKey: previous.projectKey,
    kind: previous.kind,
    tags: previous.tags,
    originTool: actor,
    workingDir,
  });
  deps.log.info('memory superseded', { id: previous.id, actor, decision: outcome.decision });
  return outcome;
}

/** Deletes the memory, audited with the actor. NOT_FOUND when it is already gone. */
export async function forgetAsUser(
  deps: Pick<WriteDeps, 'store' | 'log'>,
  memory: Memory,
  actor: string,
): Promise<void> {
  if (!(await deps.store.forget(memory.id, { actor }))) {
    throw new MemoryError('NOT_FOUND', `Memory ${memory.id} was already deleted.`);
  }
  deps.log.info('memory forgotten', { id: memory.id, actor });
}
