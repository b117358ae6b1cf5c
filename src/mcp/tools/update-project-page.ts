import { relative } from 'node:path';

import { z } from 'zod';

import { resolveProjectRoot } from '../../anchors/project-root.js';
import { MemoryError } from '../../core/errors.js';
import { locatePageFile } from '../../pages/page-file.js';
import {
  inspectPage,
  type PageState,
  pendingEdits,
  writeProjectPage,
} from '../../pages/project-page.js';
import { writableProject } from '../memory-access.js';
import { defineTool } from '../tool.js';

/** Arguments a model might send hoping to apply a person's page edits; none is honoured. */
const APPLY_CLAIMS = ['apply', 'yes', 'confirm', 'force', 'read'] as const;

const APPLY_REFUSED =
  "Only the user can turn edits of the project page into memories: applied edits become the user's own memories, " +
  'and a model is not the user. Ask them to run `mnemo pages read` in the project (it shows the plan first).';

function counts(state: PageState) {
  const plan = state.existing.kind === 'parsed' ? state.existing.plan : undefined;
  const steps = plan?.steps ?? [];
  return {
    add: steps.filter((s) => s.action === 'add').length,
    change: steps.filter((s) => s.action === 'change').length,
    forget: steps.filter((s) => s.action === 'forget').length,
    conflicts: plan?.conflicts.length ?? 0,
  };
}

/**
 * `update_project_page`: refreshes the project page (MNEMO.md, or the page section of CLAUDE.md) from
 * the memories a person wrote or approved. The model may read and write the page, never apply a
 * person's edits of it: those would become user memories (threat model W4, W5), so the tool leaves the
 * file alone while it holds edits not read back, says how many, and refuses any argument asking to
 * apply them. It returns counts and the file name, never memory text, so nothing reaches the model
 * unframed; the page itself is in a file Claude Code reads.
 */
export const updateProjectPageTool = defineTool({
  name: 'update_project_page',
  title: 'Refresh the project page',
  description: [
    "Refresh the project's curated memory page (MNEMO.md, or the mnemo section of CLAUDE.md) from the memories the user wrote or approved, so the page Claude Code reads is current. Only trusted memories are rendered; yours appear after the user approves them.",
    'Use when: the user asks to update the project page, or after durable decisions were saved and the user keeps the page in the repository.',
    'Do not use when: you want to add or change knowledge (use remember or supersede_memory), or to apply edits the user made to the page: only the user can do that, with `mnemo pages read`.',
    'With dry_run it only reports whether the page is current and how many edits of the user await reading back.',
  ].join('\n'),
  input: z.looseObject({
    dry_run: z.boolean().optional().describe('Report only; write nothing.'),
  }),
  output: z.object({
    file: z.string(),
    written: z.boolean(),
    current: z.boolean(),
    entries: z.number().int(),
    pendingEdits: z.object({
      add: z.number().int(),
      change: z.number().int(),
      forget: z.number().int(),
      conflicts: z.number().int(),
    }),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(ctx, args) {
    const claimed = APPLY_CLAIMS.filter(
      (name) => (args as Record<string, unknown>)[name] !== undefined,
    );
    if (claimed.length > 0) {
      ctx.log.warn('mcp page apply refused', { claims: claimed });
      throw new MemoryError('INVALID_INPUT', APPLY_REFUSED);
    }
    const projectKey = await writableProject(ctx);
    const dir = await ctx.projectDir();
    const root = dir === null ? undefined : resolveProjectRoot(dir)?.dir;
    if (root === undefined) {
      throw new MemoryError(
        'INVALID_INPUT',
        "This connection's project directory cannot be found, so there is no page to write. Ask the user to run `mnemo pages write` in the project.",
      );
    }
    const target = { projectKey, root, path: locatePageFile(root) };
    const file = relative(root, target.path);
    const before = await inspectPage(ctx.app, target, { persist: false });
    const pending = counts(before);
    const held = pendingEdits(before);
    if (before.existing.kind === 'malformed') {
      throw new MemoryError(
        'CONFLICT',
        `${file} has a damaged mnemo page section (${before.existing.error.message}), so it was left alone. Tell the user; \`mnemo pages read\` shows what to fix.`,
      );
    }
    let written = false;
    if (args.dry_run !== true && held === 0 && !before.current) {
      written = (await writeProjectPage(ctx.app, target, { force: false })).written;
    }
    const structured = {
      file,
      written,
      current: written || before.current,
      entries: before.page.entries.length,
      pendingEdits: pending,
    };
    const n = `${structured.entries} ${structured.entries === 1 ? 'entry' : 'entries'}`;
    const lines = [
      written
        ? `Wrote ${file} (${n}).`
        : structured.current
          ? `${file} is up to date (${n}).`
          : `${file} is not up to date${args.dry_run === true ? ' (dry run: nothing written)' : ''}.`,
    ];
    if (held > 0) {
      lines.push(
        `It holds edits by the user not read back yet (${pending.add} added, ${pending.change} changed, ${pending.forget} deleted, ${pending.conflicts} conflicts), so it was not rewritten. Ask the user to run \`mnemo pages read\`; only they can apply their edits.`,
      );
    }
    return { structured, text: lines.join('\n') };
  },
});
