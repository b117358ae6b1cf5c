/**
 * Applies the plan of a person's page edits through the one write path: an added entry is a new memory
 * (`writeMemory`), a changed or moved one a supersession that keeps history (`supersedeMemory`), a
 * deleted one a forget. The channel is a human one (the CLI or the web viewer), so what is written has
 * origin `user`: no MCP tool and no hook reaches this file (threat model W4, W5: the model is not the
 * user). Afterwards the page is written again so its ids name the new memories.
 *
 * Nothing is applied from a plan with a conflict, from a text the write path would refuse, or when the
 * file changed since the plan was shown: each is an error that changes nothing.
 */
import { MemoryError } from '../core/errors.js';
import { type MemoryId, validateNewMemory } from '../core/memory.js';
import type { PagePlanStep } from '../core/pages/plan-page-edits.js';
import { supersedeMemory } from '../write/supersede-memory.js';
import { type WriteDeps, writeMemory, type WriteOutcome } from '../write/write-memory.js';
import { readPageFile, replacePageFile } from './page-file.js';
import { inspectPage, type PageState } from './project-page.js';

/** The human channels that may turn page edits into memories. */
export type PageChannel = 'cli' | 'web';

export interface AppliedStep {
  readonly step: PagePlanStep;
  /** `stored`/`merged`: a new memory or one that already held the text; `replaced`: a supersession. */
  readonly result: 'stored' | 'merged' | 'replaced' | 'forgotten' | 'gone' | 'refused';
  /** The memory the step produced or removed. */
  readonly id: MemoryId;
  readonly notes: readonly string[];
}

export interface ApplyResult {
  readonly applied: readonly AppliedStep[];
  /** The page after the edits, as written back into its file. */
  readonly after: PageState;
  readonly written: boolean;
}

/** The plan of `state`, or the error that says why it cannot be applied. */
function planOf(state: PageState) {
  switch (state.existing.kind) {
    case 'none':
      throw new MemoryError(
        'INVALID_INPUT',
        `${state.target.path} has no mnemo page section. Run \`mnemo pages write\` to create one.`,
      );
    case 'malformed':
      throw state.existing.error;
    case 'parsed':
      break;
  }
  const { plan } = state.existing;
  if (plan.conflicts.length > 0) {
    throw new MemoryError(
      'CONFLICT',
      `Nothing was applied: ${plan.conflicts.map((c) => `line ${c.line}: ${c.message}`).join(' ')}`,
    );
  }
  return plan;
}

/** Applies the edits of `state` as `channel`; see the file header. */
export async function applyPageEdits(
  deps: WriteDeps,
  state: PageState,
  channel: PageChannel,
): Promise<ApplyResult> {
  const plan = planOf(state);
  const { projectKey, root } = state.target;
  for (const step of plan.steps) {
    if (step.action === 'forget') continue;
    try {
      validateNewMemory({ content: step.text, projectKey, kind: step.kind });
    } catch (error) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Nothing was applied: line ${step.line}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  if (!readPageFile(state.target.path).bytes.equals(state.file.bytes)) {
    throw new MemoryError(
      'CONFLICT',
      `${state.target.path} changed since the plan was made; nothing was applied. Run \`mnemo pages read\` again to see the new plan.`,
    );
  }

  const request = {
    envelope: { channel } as const,
    projectKey,
    originTool: `${channel}:page`,
    workingDir: root,
  };
  const applied: AppliedStep[] = [];
  for (const step of plan.steps) {
    applied.push(await applyStep(deps, step, request));
  }
  deps.log.info('project page edits applied', {
    path: state.target.path,
    steps: applied.map((a) => a.result),
  });

  const after = await inspectPage(deps, state.target, { persist: true });
  if (!after.file.bytes.equals(state.file.bytes)) {
    throw new MemoryError(
      'CONFLICT',
      `The edits were applied, but ${state.target.path} changed meanwhile, so it was not rewritten. Run \`mnemo pages read\` to check it, then \`mnemo pages write\`.`,
    );
  }
  if (after.current) return { applied, after, written: false };
  replacePageFile(after.file, after.next);
  return { applied, after, written: true };
}

interface StepRequest {
  readonly envelope: { channel: PageChannel };
  readonly projectKey: string;
  readonly originTool: string;
  readonly workingDir: string | null;
}

async function applyStep(
  deps: WriteDeps,
  step: PagePlanStep,
  request: StepRequest,
): Promise<AppliedStep> {
  switch (step.action) {
    case 'add': {
      // A person put it on the page on purpose: the novelty gate does not second-guess them.
      const outcome = await writeMemory(deps, {
        ...request,
        content: step.text,
        kind: step.kind,
        force: true,
      });
      return fromOutcome(step, outcome, 'stored');
    }
    case 'change': {
      const previous = await deps.store.getMemory(step.memory.id);
      if (previous === undefined || previous.supersededBy !== null) {
        const what =
          previous === undefined ? 'was forgotten' : `was replaced by ${previous.supersededBy}`;
        return {
          step,
          result: 'refused',
          id: step.memory.id,
          notes: [`memory ${step.memory.id} ${what} meanwhile; the edit was not applied`],
        };
      }
      const outcome = await supersedeMemory(deps, previous, {
        ...request,
        content: step.text,
        kind: step.kind,
        tags: previous.tags,
      });
      if (outcome.decision === 'store' && previous.pinned) {
        // A person's pin is theirs to keep: supersession drops privileges, the human channel grants it again.
        await deps.store.updateMemory(outcome.memory.id, { pinned: true });
      }
      return fromOutcome(step, outcome, 'replaced');
    }
    case 'forget': {
      const forgotten = await deps.store.forget(step.memory.id);
      return { step, result: forgotten ? 'forgotten' : 'gone', id: step.memory.id, notes: [] };
    }
  }
}

function fromOutcome(
  step: PagePlanStep,
  outcome: WriteOutcome,
  stored: 'stored' | 'replaced',
): AppliedStep {
  if (outcome.decision === 'reject') {
    return {
      step,
      result: 'refused',
      id: step.action === 'add' ? '' : step.memory.id,
      notes: outcome.notes,
    };
  }
  return {
    step,
    result: outcome.decision === 'merge' ? 'merged' : stored,
    id: outcome.memory.id,
    notes: outcome.notes,
  };
}
