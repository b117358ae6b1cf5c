import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { snippet } from '../format.js';
import { explainMemory, formatExplanation, getExistingMemory } from './get.js';

/** `mnemo explain <id>`: origin, trust, review state, gate reason, injection eligibility and audit trail. */
export async function explain(
  ctx: CliContext,
  id: string,
  options: { json?: boolean },
): Promise<void> {
  const app = await ctx.openApp();
  const memory = await getExistingMemory(app.store, id);
  const explanation = await explainMemory(app.store, memory);
  await writeOut(
    ctx.io.stdout,
    options.json === true
      ? `${JSON.stringify(explanation, null, 2)}\n`
      : `${memory.id}  ${memory.kind}  ${snippet(memory.content, 80)}\n\n${formatExplanation(explanation)}`,
  );
}
