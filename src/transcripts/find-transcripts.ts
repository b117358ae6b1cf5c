/**
 * Finding Claude Code transcripts: every `*.jsonl` under the projects directory
 * (`$CLAUDE_CONFIG_DIR/projects`, default `~/.claude/projects`), in project folders and in their
 * sessions' `subagents/` folders (integration reference §5.1). Symbolic links inside the tree are not
 * followed (no loops, nothing outside the tree), and `tool-results/` and `memory/` folders are skipped:
 * they hold tool output files and Claude Code's own memory notes, not transcripts.
 */
import { type Dirent, realpathSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { MemoryError } from '../core/errors.js';

/** One transcript file as found. */
export interface TranscriptFile {
  /** Canonical absolute path (the key of the import state). */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** `<project>/<session>/subagents/agent-*.jsonl` lies three levels below the projects directory. */
const MAX_DEPTH = 4;
const SKIPPED_DIRS = new Set(['tool-results', 'memory']);

/** The default projects directory for an environment. */
export function defaultProjectsDir(env: NodeJS.ProcessEnv, userHome: string): string {
  const configDir = env['CLAUDE_CONFIG_DIR']?.trim();
  return join(
    configDir === undefined || configDir === '' ? join(userHome, '.claude') : configDir,
    'projects',
  );
}

/**
 * Lists the transcripts under `root`, sorted by path. Throws INVALID_INPUT when `root` is not a
 * readable directory.
 */
export async function findTranscripts(root: string): Promise<TranscriptFile[]> {
  let base: string;
  try {
    base = realpathSync(resolve(root));
    if (!statSync(base).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw new MemoryError(
      'INVALID_INPUT',
      `No Claude Code transcripts directory at ${root} (${(error as Error).message}). ` +
        'Pass --path <dir>: the projects directory (~/.claude/projects) or one project folder in it.',
      { cause: error },
    );
  }
  const found: TranscriptFile[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // An unreadable folder holds nothing we can import; its siblings still count.
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH && !SKIPPED_DIRS.has(entry.name)) {
        await walk(path, depth + 1);
      } else if (entry.isFile() && entry.name.endsWith('.jsonl')) {
        try {
          const info = await stat(path);
          found.push({ path, size: info.size, mtimeMs: info.mtimeMs });
        } catch {
          // Deleted between listing and stat (Claude Code's cleanup): nothing to import.
        }
      }
    }
  };
  await walk(base, 1);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
