import { reverifyMemory } from '../../anchors/reverify.js';
import { getExistingMemory } from '../../review/explain-memory.js';
import { formatAnchors } from '../anchor-text.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { explainWhere } from './get.js';

/**
 * `mnemo reverify <id> [--project <dir>] [--json]`: a person confirms a memory still holds; its anchors
 * are re-taken from the project's files as they are now (renames followed) and the audit trail records
 * it. The CLI is a human channel, so any memory of the project may be re-verified.
 */
export async function reverify(
  ctx: CliContext,
  id: string,
  options: { project?: string; json?: boolean },
): Promise<void> {
  const where = explainWhere(ctx.io, options.project);
  const app = await ctx.openApp();
  const memory = await getExistingMemory(app.store, id);
  const { before, after } = await reverifyMemory(app, memory, {
    ...where,
    actor: { origin: 'user', channel: 'cli' },
  });
  if (options.json === true) {
    await writeOut(ctx.io.stdout, `${JSON.stringify({ id: memory.id, before, after }, null, 2)}\n`);
    return;
  }
  const files = after.anchors.filter((anchor) => anchor.kind === 'file');
  const was =
    before.status === 'stale' || before.status === 'gone'
      ? `it was ${before.status}: ${before.label ?? ''}`
      : `it was ${before.status}`;
  await writeOut(
    ctx.io.stdout,
    `Re-verified ${memory.id} (${was}); anchored to ${files.length} ${files.length === 1 ? 'file' : 'files'}: ` +
      `${files.map((anchor) => anchor.path).join(', ') || 'none'}.\n` +
      formatAnchors({
        status: files.length === 0 ? 'unanchored' : 'fresh',
        label: null,
        how: after.how,
        resolvedAt: after.resolvedAt,
        checkedIn: null,
        anchors: after.anchors.map((anchor) =>
          anchor.kind === 'file'
            ? { ...anchor, kind: 'file', description: 'anchored as it is now' }
            : {
                path: anchor.path,
                kind: 'mention',
                why: anchor.why,
                description: `mention (${anchor.why})`,
              },
        ),
      }),
  );
}
