import { type MemoryKind, validateNewMemory } from '../../core/memory.js';
import type { CliContext } from '../cli-context.js';
import { decodeUtf8, readAllBytes, writeOut } from '../cli-io.js';
import { projectKeyFromOption } from '../project-option.js';

export interface RememberCliOptions {
  tag?: string[];
  kind?: MemoryKind;
  project?: string;
  global?: boolean;
}

/** The origin of everything typed at the CLI: a person, the most trusted channel. */
export const CLI_ORIGIN = 'user';

/** `mnemo remember <text...>` / `mnemo remember -`: stores one memory and prints its id. */
export async function remember(
  ctx: CliContext,
  text: readonly string[],
  options: RememberCliOptions,
): Promise<void> {
  const content =
    text.length === 1 && text[0] === '-'
      ? decodeUtf8(await readAllBytes(ctx.io.stdin), 'stdin')
      : text.join(' ');
  // Validate before opening the store so refused input never creates or touches a store file.
  const input = validateNewMemory({
    content,
    projectKey: projectKeyFromOption(ctx.io, options.project),
    visibility: options.global === true ? 'global' : 'project',
    kind: options.kind ?? 'note',
    tags: options.tag ?? [],
    origin: CLI_ORIGIN,
    originTool: 'cli',
  });
  const app = await ctx.openApp();
  const { memory, created } = await app.store.remember(input);
  app.log.info('remembered', { id: memory.id, created });
  await writeOut(
    ctx.io.stdout,
    `${created ? 'Remembered' : 'Already remembered as'} ${memory.id}\n`,
  );
}
