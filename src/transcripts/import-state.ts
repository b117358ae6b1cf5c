/**
 * The resume state of `mnemo import claude-code`: per transcript file, its size and mtime when last read,
 * how far it was read, and where to resume. Kept in `$MNEMO_HOME/import/claude-code.json` (never next to
 * the transcripts), written atomically (temporary file + rename). It holds paths, offsets and tool-call
 * ids only: no transcript text, so nothing unredacted reaches disk through it.
 *
 * Resuming at a byte offset is sound because Claude Code only appends to a transcript. A rewritten file
 * is recognised by its size shrinking below the offset or by the bytes just before the offset changing
 * (`anchor`), and is then read again from the start; the store's content-hash dedupe keeps that safe.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

import { z } from 'zod';

/** Where one file stands. */
export interface FileState {
  /** Size and mtime when the file was last read. */
  readonly size: number;
  readonly mtimeMs: number;
  /** Bytes read (exclusive end). */
  readonly readTo: number;
  /** Resume point: the start of the first line not fully handled (an unanswered tool call, or EOF). */
  readonly offset: number;
  /** The line number of the line at `offset`. */
  readonly line: number;
  /** sha256 of up to {@link ANCHOR_BYTES} bytes before `offset` ('' at 0): detects a rewritten file. */
  readonly anchor: string;
  /** Tool calls after `offset` whose results were already handled: not offered again on resume. */
  readonly doneToolUses: readonly string[];
  /** The `--since`/`--project` the file was read with; another filter reads it again. */
  readonly filter: string;
}

/** The whole state. */
export interface ImportState {
  readonly version: 1;
  readonly files: Record<string, FileState>;
}

/** Bytes before the resume offset that must be unchanged for a resume. */
export const ANCHOR_BYTES = 4096;

const fileStateSchema = z.object({
  size: z.number().int().min(0),
  mtimeMs: z.number(),
  readTo: z.number().int().min(0),
  offset: z.number().int().min(0),
  line: z.number().int().min(1),
  anchor: z.string().max(64),
  doneToolUses: z.array(z.string().max(256)).max(100_000),
  filter: z.string().max(4096),
});
const stateSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), fileStateSchema),
});

/** The state file of a mnemo home. */
export function importStatePath(home: string): string {
  return join(home, 'import', 'claude-code.json');
}

/** A state with nothing read. */
export function emptyState(): ImportState {
  return { version: 1, files: {} };
}

/**
 * Loads the state. A missing file is an empty state; an unreadable or invalid one is reported in
 * `problem` and treated as empty (every transcript is offered again; dedupe keeps that safe).
 */
export function loadImportState(path: string): { state: ImportState; problem?: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: emptyState() };
    return { state: emptyState(), problem: `cannot read ${path}: ${(error as Error).message}` };
  }
  try {
    const parsed = stateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { state: parsed.data };
  } catch {
    // Fall through: reported below.
  }
  return { state: emptyState(), problem: `${path} is not a valid import state; starting over` };
}

/** Writes the state atomically. */
export function saveImportState(path: string, state: ImportState): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** sha256 hex of the {@link ANCHOR_BYTES} bytes before `offset` of `path` ('' at offset 0). */
export function anchorAt(path: string, offset: number): string {
  if (offset <= 0) return '';
  const from = Math.max(0, offset - ANCHOR_BYTES);
  const buffer = Buffer.alloc(offset - from);
  const fd = openSync(path, 'r');
  try {
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    return createHash('sha256').update(buffer.subarray(0, read)).digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** What to do with a file, given its recorded state. */
export type FilePlan =
  | { readonly action: 'skip' }
  | {
      readonly action: 'read';
      readonly from: number;
      readonly line: number;
      readonly doneToolUses: readonly string[];
      readonly restarted: boolean;
    };

/** Decides whether `file` is unchanged since it was read, can be resumed, or must be read again. */
export function planFile(
  file: { path: string; size: number; mtimeMs: number },
  recorded: FileState | undefined,
  filter: string,
): FilePlan {
  const fresh = { action: 'read', from: 0, line: 1, doneToolUses: [] } as const;
  if (recorded === undefined) return { ...fresh, restarted: false };
  if (recorded.filter !== filter) return { ...fresh, restarted: true };
  if (
    file.size === recorded.size &&
    file.mtimeMs === recorded.mtimeMs &&
    recorded.readTo === file.size
  ) {
    return { action: 'skip' };
  }
  if (file.size < recorded.offset) return { ...fresh, restarted: true };
  let anchor: string;
  try {
    anchor = anchorAt(file.path, recorded.offset);
  } catch {
    return { ...fresh, restarted: true };
  }
  if (anchor !== recorded.anchor) return { ...fresh, restarted: true };
  return {
    action: 'read',
    from: recorded.offset,
    line: recorded.line,
    doneToolUses: recorded.doneToolUses,
    restarted: false,
  };
}
