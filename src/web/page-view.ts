/**
 * The project page as the viewer's API answers it (`api-project-page.ts`); its front end imports these
 * shapes type-only, so this file imports nothing that needs Node.
 */
import type { PagePlan, PagePlanStep } from '../core/pages/plan-page-edits.js';

/** One planned step, with the ids and texts a person reviews (never a whole memory row). */
export type PageStepView =
  | { action: 'add'; section: string; kind: string; text: string; line: number }
  | {
      action: 'change';
      id: string;
      section: string;
      kind: string;
      previousKind: string;
      text: string;
      previous: string;
      line: number;
    }
  | { action: 'forget'; id: string; kind: string; previous: string };

export interface PagePlanView {
  steps: PageStepView[];
  conflicts: { id: string; line: number; message: string }[];
  notes: string[];
  unchanged: number;
}

export interface ProjectPageView {
  project: string;
  /** The file's name in the working tree, or null when the project is not checked out here. */
  file: string | null;
  /** The page section as `mnemo pages write` would write it now. */
  section: string;
  entries: number;
  /** Memories of the project the page does not show (untrusted, pending, superseded...). */
  withheld: number;
  /** The file already holds exactly this page. */
  current: boolean;
  /** What the file's section holds: nothing yet, a person's edits as a plan, or why it cannot be read. */
  existing:
    | { kind: 'none' }
    | { kind: 'parsed'; plan: PagePlanView }
    | { kind: 'malformed'; message: string };
  /** sha256 of the file as read: an apply names it, and is refused when the file changed since. */
  digest: string | null;
}

function stepView(step: PagePlanStep): PageStepView {
  switch (step.action) {
    case 'add':
      return { ...step };
    case 'change':
      return {
        action: 'change',
        id: step.memory.id,
        section: step.section,
        kind: step.kind,
        previousKind: step.memory.kind,
        text: step.text,
        previous: step.previous,
        line: step.line,
      };
    case 'forget':
      return {
        action: 'forget',
        id: step.memory.id,
        kind: step.memory.kind,
        previous: step.previous,
      };
  }
}

export function planView(plan: PagePlan): PagePlanView {
  return {
    steps: plan.steps.map(stepView),
    conflicts: plan.conflicts.map((c) => ({ ...c })),
    notes: [...plan.notes],
    unchanged: plan.unchanged,
  };
}
