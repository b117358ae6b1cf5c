import { getExistingMemory } from '../../review/explain-memory.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { snippet } from '../format.js';
import { explainMemory, explainWhere, formatExplanation } from './get.js';

/**
 * `mnemo explain <id>`: origin, trust, review state, gate reason, whether (and why not) it is injected,
 * the ledger's last word on it, its code anchors with what happened to each cited file, and its audit
 * trail. Anchors are checked from `--project <dir>` or the working directory.
 */
export async function explain(
  ctx: CliContext,
  id: string,
  options: { json?: boolean; project?: string },
): Promise<void> {
  const where = explainWhere(ctx.io, options.project);
  const app = await ctx.openApp();
  const memory = await getExistingMemory(app.store, id);
  const explanation = await explainMemory(app, memory, where);
  await writeOut(
    ctx.io.stdout,
    options.json === true
      ? `${JSON.stringify(explanation, null, 2)}\n`
      : `${memory.id}  ${memory.kind}  ${snippet(memory.content, 80)}\n\n${formatExplanation(explanation)}`,
  );
}
