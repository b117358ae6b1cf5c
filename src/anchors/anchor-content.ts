/**
 * Anchoring at write time: the files a memory's text cites that exist in its project now, each hashed
 * (git blob id of the bytes), with HEAD's commit read from git's files and the symbols of the text found
 * in it; a cited path that does not exist is an unresolved mention. Synchronous, no `git` process and no
 * tree walk: at most {@link MAX_CITED_PATHS} + {@link MAX_CITED_NAMES} stats and as many reads of files
 * under {@link MAX_ANCHOR_FILE_BYTES}, so it is cheap enough for a capture hook.
 */
import { realpathSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

import {
  type Anchor,
  type AnchorCheck,
  type AnchorSetInput,
  type FileAnchor,
  isAnchorPath,
  MAX_ANCHORS,
  type NewAnchorSet,
} from '../core/anchors/anchor.js';
import { citedFileNames, citedPaths } from '../core/anchors/cited-paths.js';
import { candidateSymbols, symbolsIn } from '../core/anchors/cited-symbols.js';
import { fingerprintFile, MAX_ANCHOR_FILE_BYTES, statPath } from './fingerprint.js';

/**
 * Bytes one anchoring may read in all: a capture citing several large files stays cheap for its hook.
 * A file past it is a `too_large` mention.
 */
export const MAX_ANCHORING_BYTES = 8 * 1024 * 1024;
import { readHead } from './git-head.js';
import { type ProjectRoot, resolveProjectRoot } from './project-root.js';

/** A set ready for the store, with the checks its fingerprints already prove (cache seed). */
export type ResolvedAnchors = AnchorSetInput & {
  readonly checks: readonly Omit<AnchorCheck, 'memoryId'>[];
};

/** One cited path resolved against the working tree. */
export interface WorktreeFile {
  /** Project-relative. */
  readonly path: string;
  readonly anchor: Anchor;
  /** The file's text when it was read (for symbol checks). */
  readonly text?: string;
  readonly signature?: string;
  readonly racy?: boolean;
}

/**
 * Anchors `content` against the project holding `workingDir`. Undefined when no directory is known or
 * it does not exist: the memory is then `pending` until a process in the project backfills it.
 */
export function anchorContent(
  content: string,
  workingDir: string | null | undefined,
  now: Date,
  how: 'write' | 'reverify' = 'write',
): ResolvedAnchors | undefined {
  if (workingDir === null || workingDir === undefined || workingDir === '') return undefined;
  const root = resolveProjectRoot(workingDir);
  if (root === undefined) return undefined;
  return anchorAgainst(root, content, now, { how, cwd: workingDir });
}

/** Anchors `content` against a resolved root; `cwd` also resolves paths written relative to it. */
export function anchorAgainst(
  root: ProjectRoot,
  content: string,
  now: Date,
  options: { how: NewAnchorSet['how']; cwd?: string; head?: string | null },
): ResolvedAnchors {
  const head = options.head ?? (root.git === null ? null : (readHead(root.git) ?? null));
  const symbols = candidateSymbols(content);
  const anchors: Anchor[] = [];
  const checks: Omit<AnchorCheck, 'memoryId'>[] = [];
  const seen = new Set<string>();
  const add = (file: WorktreeFile): void => {
    if (seen.has(file.path) || anchors.length >= MAX_ANCHORS) return;
    seen.add(file.path);
    anchors.push(file.anchor);
    if (file.anchor.kind === 'file' && file.signature !== undefined && file.racy !== true) {
      checks.push({
        path: file.path,
        checkedAt: now.toISOString(),
        signature: file.signature,
        head,
        verdict: { state: 'fresh' },
      });
    }
  };
  const cwd = subdirectoryOf(root.dir, options.cwd);
  const budget = { bytes: MAX_ANCHORING_BYTES };
  for (const cited of citedPaths(content, root.dir)) {
    add(
      readWorktreeFile(root, candidatesFor(cited, cwd), head, symbols, now, budget) ??
        mention(cited),
    );
  }
  for (const name of citedFileNames(content)) {
    const file = readWorktreeFile(root, candidatesFor(name, cwd), head, symbols, now, budget);
    // A bare word that names no file is no citation at all.
    if (file?.anchor.kind === 'file') add(file);
  }
  return { how: options.how, anchors, checks };
}

/**
 * The first candidate path that is a regular file, fingerprinted; a mention when the first candidate is
 * something else (a directory, too large, unreadable); undefined when none exists. Reads are paid from
 * `budget` when given.
 */
export function readWorktreeFile(
  root: ProjectRoot,
  candidates: readonly string[],
  head: string | null,
  symbols: readonly string[],
  now: Date,
  budget: { bytes: number } = { bytes: MAX_ANCHOR_FILE_BYTES },
): WorktreeFile | undefined {
  for (const path of candidates) {
    if (!isAnchorPath(path)) continue;
    const stat = statPath(join(root.dir, path), now.getTime());
    if (stat.kind === 'absent') continue;
    if (stat.kind === 'other')
      return { path, anchor: { kind: 'mention', path, why: 'not_a_file' } };
    const print = fingerprintFile(
      join(root.dir, path),
      stat.size,
      Math.min(MAX_ANCHOR_FILE_BYTES, budget.bytes),
    );
    if (print.kind !== 'file') return { path, anchor: { kind: 'mention', path, why: print.kind } };
    budget.bytes -= print.size;
    const anchor: FileAnchor = {
      kind: 'file',
      path,
      citedAs: null,
      blobId: print.blobId,
      size: print.size,
      commit: head,
      source: 'worktree',
      symbols: symbolsIn(print.text, symbols),
    };
    return { path, anchor, text: print.text, signature: stat.signature, racy: stat.racy };
  }
  return undefined;
}

function mention(path: string): WorktreeFile {
  return { path, anchor: { kind: 'mention', path, why: 'missing' } };
}

/** A cited path as written, and relative to the writer's subdirectory when that differs. */
function candidatesFor(cited: string, cwd: string | undefined): string[] {
  return cwd === undefined ? [cited] : [cited, `${cwd}/${cited}`];
}

/** `cwd` relative to `root` (`/`-separated) when strictly inside it, else undefined. */
function subdirectoryOf(root: string, cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  let inner: string;
  try {
    inner = realpathSync(resolve(cwd));
  } catch {
    return undefined;
  }
  const rel = relative(root, inner);
  if (rel === '' || rel.startsWith('..')) return undefined;
  return rel.split(sep).join('/');
}
