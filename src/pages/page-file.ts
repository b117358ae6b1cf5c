/**
 * The project page on disk. The page lives in a Markdown file at the root of the working tree: its own
 * file (`MNEMO.md`), or a section of `CLAUDE.md` (or any file a person names). Reading is strict: the
 * file must be UTF-8 and of bounded size, and its bytes are kept, byte-order mark included, so that a
 * rewrite can change the managed section and nothing else. Writing is compare-and-swap: the file is
 * read again just before it is replaced, and if a person (or an editor) changed it meanwhile nothing is
 * written (CONFLICT). A symbolic link is written through, so `CLAUDE.md -> AGENTS.md` stays a link.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { MemoryError } from '../core/errors.js';
import { locateSection } from '../core/pages/managed-section.js';
import { writeNewFileSynced } from '../platform/private-fs.js';

/** The page's own file, beside CLAUDE.md. */
export const PAGE_FILE_NAME = 'MNEMO.md';
/** The file Claude Code reads at the root of a project. */
export const CLAUDE_FILE_NAME = 'CLAUDE.md';
/** Largest file read: a page is read into every session; anything bigger is not one. */
export const MAX_PAGE_FILE_BYTES = 4 * 1024 * 1024;

export interface PageFile {
  readonly path: string;
  readonly exists: boolean;
  /** The bytes read (empty when the file does not exist). */
  readonly bytes: Buffer;
  /** The bytes as text, a byte-order mark kept as U+FEFF. */
  readonly text: string;
}

function decode(bytes: Buffer, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${path} is not valid UTF-8, so mnemo will not rewrite it. Convert it to UTF-8 first.`,
      { cause: error },
    );
  }
}

/** Reads `path`; a missing file reads as empty. Throws INVALID_INPUT for a directory, a huge or non-UTF-8 file. */
export function readPageFile(path: string): PageFile {
  if (!existsSync(path)) return { path, exists: false, bytes: Buffer.alloc(0), text: '' };
  const stat = statSync(path);
  if (!stat.isFile()) {
    throw new MemoryError('INVALID_INPUT', `${path} is not a regular file; name a Markdown file.`);
  }
  if (stat.size > MAX_PAGE_FILE_BYTES) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${path} is ${stat.size} bytes; mnemo reads page files of at most ${MAX_PAGE_FILE_BYTES}. Name a smaller file.`,
    );
  }
  const bytes = readFileSync(path);
  return { path, exists: true, bytes, text: decode(bytes, path) };
}

/** True when the file at `path` holds a page section (false for a missing or unreadable file). */
function holdsPage(path: string): boolean {
  try {
    return locateSection(readPageFile(path).text) !== undefined;
  } catch {
    // A damaged section still marks the file as the page's: reading it later reports the damage.
    return existsSync(path);
  }
}

/**
 * The file the page of the working tree at `root` is in: `MNEMO.md` when it holds one, else
 * `CLAUDE.md` when it does, else `MNEMO.md` (where a first write puts it).
 */
export function locatePageFile(root: string): string {
  const own = join(root, PAGE_FILE_NAME);
  if (existsSync(own) && holdsPage(own)) return own;
  const claude = join(root, CLAUDE_FILE_NAME);
  if (existsSync(claude) && holdsPage(claude)) return claude;
  return own;
}

/**
 * Replaces the file `file` was read from with `text`, unless it changed since (CONFLICT, nothing
 * written). Keeps the file's mode; a new file gets 0644.
 */
export function replacePageFile(file: PageFile, text: string): void {
  const now = readPageFile(file.path);
  if (now.exists !== file.exists || !now.bytes.equals(file.bytes)) {
    throw new MemoryError(
      'CONFLICT',
      `${file.path} changed while mnemo was working on it; nothing was written. Run the command again.`,
    );
  }
  const target = file.exists ? realpathSync(file.path) : file.path;
  if (!existsSync(dirname(target))) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${dirname(target)} does not exist; name a file in an existing directory.`,
    );
  }
  const mode = file.exists ? statSync(target).mode & 0o777 : 0o644;
  const temp = join(
    dirname(target),
    `.${basename(target)}.mnemo-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  writeNewFileSynced(temp, Buffer.from(text, 'utf8'), mode);
  try {
    chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
