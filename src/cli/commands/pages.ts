import { relative, resolve } from 'node:path';

import { resolveProjectRoot } from '../../anchors/project-root.js';
import { MemoryError } from '../../core/errors.js';
import type { PagePlan, PagePlanStep } from '../../core/pages/plan-page-edits.js';
import { normaliseControls } from '../../core/render/sanitise-text.js';
import { type AppliedStep, applyPageEdits } from '../../pages/apply-page-edits.js';
import { loadedPageHint } from '../../pages/loaded-page.js';
import { locatePageFile } from '../../pages/page-file.js';
import {
  inspectPage,
  type PageState,
  type PageTarget,
  pendingEdits,
  refuseToDiscard,
  writeProjectPage,
} from '../../pages/project-page.js';
import { writeDepsFrom } from '../../write/write-policy.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { projectKeyFromOption } from '../project-option.js';

export interface PagesWriteOptions {
  project?: string;
  into?: string;
  force?: boolean;
  check?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export interface PagesReadOptions {
  project?: string;
  from?: string;
  apply?: boolean;
  json?: boolean;
}

function targetOf(
  ctx: CliContext,
  project: string | undefined,
  file: string | undefined,
): PageTarget {
  const dir = resolve(ctx.io.cwd, project ?? '.');
  const root = resolveProjectRoot(dir)?.dir;
  if (root === undefined) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${dir} is not a directory. Pass --project <dir> of a project.`,
    );
  }
  const projectKey = projectKeyFromOption(ctx.io, project);
  const path = file === undefined ? locatePageFile(root) : resolve(ctx.io.cwd, file);
  return { projectKey, root, path };
}

function shown(ctx: CliContext, path: string): string {
  const rel = relative(ctx.io.cwd, path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

function counts(state: PageState): string {
  const n = state.page.entries.length;
  return `${n} ${n === 1 ? 'entry' : 'entries'}`;
}

/**
 * `mnemo pages write [--project <dir>] [--into <file>] [--force] [--check] [--dry-run] [--json]`: renders
 * the project page from trusted memories into its file (MNEMO.md by default, or the page section of the
 * file named), keeping every byte outside the section. Refuses to discard edits not yet read back.
 */
export async function pagesWrite(ctx: CliContext, options: PagesWriteOptions): Promise<void> {
  const target = targetOf(ctx, options.project, options.into);
  const app = await ctx.openApp();
  const name = shown(ctx, target.path);
  if (options.dryRun === true || options.check === true) {
    const state = await inspectPage(app, target, { persist: false });
    if (options.dryRun === true) {
      await writeOut(ctx.io.stdout, `${state.section}\n`);
      return;
    }
    if (options.json === true)
      await writeOut(ctx.io.stdout, `${JSON.stringify(writeReport(state, false), null, 2)}\n`);
    refuseToDiscard(state);
    if (!state.current) {
      throw new MemoryError(
        'CHECK_FAILED',
        `${name} is not up to date with the store. Run \`mnemo pages write\`.`,
      );
    }
    if (options.json !== true)
      await writeOut(ctx.io.stdout, `${name} is up to date (${counts(state)}).\n`);
    return;
  }
  const { state, written } = await writeProjectPage(app, target, { force: options.force === true });
  if (options.json === true) {
    await writeOut(ctx.io.stdout, `${JSON.stringify(writeReport(state, written), null, 2)}\n`);
    return;
  }
  const hint = target.root === null ? undefined : loadedPageHint(target.root, target.path);
  await writeOut(
    ctx.io.stdout,
    `${written ? `Wrote ${name}` : `${name} is up to date`} (${counts(state)}, ${state.page.withheld.length} memories not trusted for the page).\n` +
      (hint === undefined ? '' : `${hint}\n`),
  );
}

function writeReport(state: PageState, written: boolean) {
  return {
    file: state.target.path,
    written,
    current: written || state.current,
    entries: state.page.entries.map((e) => ({
      id: e.memory.id,
      section: e.section,
      stale: state.staleness.get(e.memory.id)?.status === 'stale',
    })),
    withheld: state.page.withheld,
    pendingEdits: pendingEdits(state),
  };
}

/**
 * `mnemo pages read [--project <dir>] [--from <file>] [--apply] [--json]`: reads a person's edits of the
 * page back as a plan (new memories, supersessions, forgets), and applies it on `--apply`, or after a
 * yes at a terminal. Without either nothing is applied.
 */
export async function pagesRead(ctx: CliContext, options: PagesReadOptions): Promise<void> {
  const target = targetOf(ctx, options.project, options.from);
  const app = await ctx.openApp();
  const state = await inspectPage(app, target, { persist: false });
  const name = shown(ctx, target.path);
  if (state.existing.kind === 'none') {
    throw new MemoryError(
      'INVALID_INPUT',
      `${name} has no mnemo page. Run \`mnemo pages write\` first.`,
    );
  }
  if (state.existing.kind === 'malformed') {
    throw new MemoryError('INVALID_INPUT', `${state.existing.error.message} Nothing was changed.`);
  }
  const { plan } = state.existing;
  if (options.json === true && options.apply !== true) {
    await writeOut(
      ctx.io.stdout,
      `${JSON.stringify({ file: target.path, ...planJson(plan) }, null, 2)}\n`,
    );
  } else if (options.json !== true) {
    await writeOut(ctx.io.stdout, formatPlan(name, plan));
  }
  if (plan.conflicts.length > 0) {
    throw new MemoryError(
      'CONFLICT',
      `Nothing was applied: resolve the conflicts in ${name} first.`,
    );
  }
  if (plan.steps.length === 0) return;
  if (options.apply !== true) {
    if (!(await confirmed(ctx, plan.steps.length))) {
      if (options.json !== true) {
        await writeOut(
          ctx.io.stdout,
          `Nothing applied. Run \`mnemo pages read --apply\` to apply ${plan.steps.length === 1 ? 'this change' : `these ${plan.steps.length} changes`}.\n`,
        );
      }
      return;
    }
  }
  const result = await applyPageEdits(writeDepsFrom(app), state, 'cli');
  if (options.json === true) {
    await writeOut(
      ctx.io.stdout,
      `${JSON.stringify({ file: target.path, ...planJson(plan), applied: result.applied.map(appliedJson), written: result.written }, null, 2)}\n`,
    );
    return;
  }
  const lines = result.applied.map(describeApplied);
  lines.push(
    result.written ? `Rewrote ${name} (${counts(result.after)}).` : `${name} is up to date.`,
  );
  await writeOut(ctx.io.stdout, `${lines.join('\n')}\n`);
}

/** Asks at a terminal; anywhere else the answer is no (never apply silently). */
async function confirmed(ctx: CliContext, n: number): Promise<boolean> {
  const tty = (stream: unknown) => (stream as { isTTY?: boolean }).isTTY === true;
  if (!tty(ctx.io.stdin) || !tty(ctx.io.stdout)) return false;
  await writeOut(ctx.io.stdout, `Apply ${n === 1 ? 'this change' : `these ${n} changes`}? [y/N] `);
  const answer = (await firstLine(ctx.io.stdin)).trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}

async function firstLine(stdin: AsyncIterable<Uint8Array | string>): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const end = text.indexOf('\n');
    if (end !== -1) return text.slice(0, end);
  }
  return text;
}

/** Text as a terminal may show it: controls made visible, every line indented under its step. */
function block(text: string, indent: string): string {
  return normaliseControls(text)
    .split('\n')
    .map((line) => `${indent}${line}`)
    .join('\n');
}

function describeStep(step: PagePlanStep): string {
  switch (step.action) {
    case 'add':
      return `+ add a ${step.kind} (line ${step.line})\n${block(step.text, '    ')}`;
    case 'change': {
      const kind =
        step.kind === step.memory.kind ? step.kind : `${step.memory.kind} → ${step.kind}`;
      return `~ change ${step.memory.id}, ${kind} (line ${step.line}); the old text stays in history\n    was:\n${block(step.previous, '      ')}\n    now:\n${block(step.text, '      ')}`;
    }
    case 'forget':
      return `- forget ${step.memory.id}, ${step.memory.kind} (its entry was deleted)\n${block(step.previous, '    ')}`;
  }
}

/** The plan as a person reads it before confirming. */
export function formatPlan(name: string, plan: PagePlan): string {
  const lines: string[] = [];
  if (plan.steps.length === 0 && plan.conflicts.length === 0) {
    lines.push(
      `${name} matches the store (${plan.unchanged} ${plan.unchanged === 1 ? 'entry' : 'entries'}); nothing to apply.`,
    );
  } else {
    const n = plan.steps.length;
    lines.push(
      `${name}: ${n} change${n === 1 ? '' : 's'} from edits of the page (${plan.unchanged} ${plan.unchanged === 1 ? 'entry' : 'entries'} unchanged). Applied as your own memories:`,
    );
    for (const step of plan.steps) lines.push(describeStep(step));
  }
  for (const conflict of plan.conflicts)
    lines.push(`! conflict, line ${conflict.line}: ${conflict.message}`);
  for (const note of plan.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}

function planJson(plan: PagePlan) {
  return {
    steps: plan.steps.map((step) =>
      step.action === 'add'
        ? step
        : { ...step, memory: undefined, id: step.memory.id, previousKind: step.memory.kind },
    ),
    conflicts: plan.conflicts,
    notes: plan.notes,
    unchanged: plan.unchanged,
  };
}

function appliedJson(applied: AppliedStep) {
  return {
    action: applied.step.action,
    result: applied.result,
    id: applied.id,
    notes: applied.notes,
  };
}

function describeApplied(applied: AppliedStep): string {
  // "replaces <id>, kept in history" repeats what the line says.
  const told = applied.notes.filter((note) => !note.startsWith('replaces '));
  const notes = told.length === 0 ? '' : ` (${told.join('; ')})`;
  switch (applied.result) {
    case 'stored':
      return `Remembered ${applied.id}${notes}`;
    case 'merged':
      return `Already remembered as ${applied.id}${notes}`;
    case 'replaced':
      return `Replaced ${applied.step.action === 'change' ? applied.step.memory.id : ''} with ${applied.id}${notes}`;
    case 'forgotten':
      return `Forgot ${applied.id}`;
    case 'gone':
      return `${applied.id} was already gone`;
    case 'refused':
      return `Not applied: line ${applied.step.action === 'forget' ? '?' : applied.step.line}${notes}`;
  }
}
