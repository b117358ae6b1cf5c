import { resolve } from 'node:path';

import { MemoryError } from '../../core/errors.js';
import { type MemoryKind, validateNewMemory } from '../../core/memory.js';
import { writeMemory, type WriteOutcome } from '../../write/write-memory.js';
import { writeDepsFrom } from '../../write/write-policy.js';
import type { CliContext } from '../cli-context.js';
import { decodeUtf8, readAllBytes, writeOut } from '../cli-io.js';
import { projectKeyFromOption } from '../project-option.js';

export interface RememberCliOptions {
  tag?: string[];
  kind?: MemoryKind;
  project?: string;
  global?: boolean;
  force?: boolean;
}

/**
 * `mnemo remember <text...>` / `mnemo remember -`: stores one memory through the write service and prints
 * its id. The CLI is a human channel: origin `user`, and `--force` (skip the novelty gate) is honoured.
 */
export async function remember(
  ctx: CliContext,
  text: readonly string[],
  options: RememberCliOptions,
): Promise<void> {
  const content =
    text.length === 1 && text[0] === '-'
      ? decodeUtf8(await readAllBytes(ctx.io.stdin), 'stdin')
      : text.join(' ');
  const request = {
    content,
    projectKey: projectKeyFromOption(ctx.io, options.project),
    visibility: options.global === true ? ('global' as const) : ('project' as const),
    // No --kind: the write path reads a leading `Decision:` (core/kind-prefix.ts), then `note`.
    ...(options.kind === undefined ? {} : { kind: options.kind }),
    tags: options.tag ?? [],
  };
  // Validate before opening the store so refused input never creates or touches a store file.
  validateNewMemory(request);
  const app = await ctx.openApp();
  const outcome = await writeMemory(writeDepsFrom(app), {
    ...request,
    envelope: { channel: 'cli' },
    originTool: 'cli',
    force: options.force === true,
    workingDir: resolve(ctx.io.cwd, options.project ?? '.'),
  });
  if (outcome.decision !== 'reject') {
    app.log.info('remembered', { id: outcome.memory.id, decision: outcome.decision });
  }
  for (const note of outcome.notes) ctx.io.stderr.write(`note: ${note}\n`);
  await writeOut(ctx.io.stdout, summary(outcome));
}

function summary(outcome: WriteOutcome): string {
  switch (outcome.decision) {
    case 'store':
      return `Remembered ${outcome.memory.id}\n`;
    case 'merge':
      return outcome.reason === 'exact_duplicate'
        ? `Already remembered as ${outcome.memory.id}\n`
        : `Merged into ${outcome.memory.id} (similarity ${(outcome.similarity ?? 0).toFixed(2)}); use --force to store it separately\n`;
    case 'reject':
      throw new MemoryError(
        'INVALID_INPUT',
        `Not remembered (${outcome.reason}): ${outcome.notes.at(-1) ?? 'refused by the write gate'}`,
      );
  }
}
