/**
 * Code anchors: what a memory knew about the code it cites. When a memory is written, each file it cites
 * that exists in its project is recorded with a fingerprint (the git blob id of its bytes, the commit at
 * the time, the identifiers the memory names that the file held); a cited path that did not exist is kept
 * as an unresolved mention, which never makes a memory stale (a path that never existed is no evidence
 * that a memory is out of date). Later checks compare the project against these fingerprints. Pure types
 * and the validation every store adapter applies before writing them.
 */
import { MemoryError } from '../errors.js';
import type { MemoryId } from '../memory.js';
import { parseIsoTimestamp } from '../ranking/iso-time.js';

/**
 * How an anchor set was resolved: when the memory was written, by the backfill of a memory written before
 * anchors existed (against the project's history at the memory's creation time), or by a re-verification.
 */
export const ANCHOR_HOWS = ['write', 'backfill', 'reverify'] as const;
export type AnchorHow = (typeof ANCHOR_HOWS)[number];

/** Why a cited path is a mention and not an anchor. */
export const MENTION_REASONS = [
  'missing',
  'not_a_file',
  'too_large',
  'unreadable',
  'deleted',
] as const;
export type MentionReason = (typeof MENTION_REASONS)[number];

/** A cited file that existed when the anchor was taken. */
export interface FileAnchor {
  readonly kind: 'file';
  /** Relative to the project root, `/`-separated; never absolute, never climbing out with `..`. */
  readonly path: string;
  /** The path as the memory's text cites it, when re-verification followed a rename; else null. */
  readonly citedAs: string | null;
  /**
   * Git blob id of the file's bytes: sha1 of `blob <size>\0<bytes>`, 40 lower-case hex. Equal to git's own
   * id of the file unless a clean filter or autocrlf rewrites it on commit.
   */
  readonly blobId: string;
  readonly size: number;
  /** HEAD when the fingerprint was taken; null outside git or before a repository's first commit. */
  readonly commit: string | null;
  /** `worktree`: hashed from the file on disk; `commit`: read from the tree of `commit` (backfill). */
  readonly source: 'worktree' | 'commit';
  /** Identifiers the memory names that the file contained then (functions, classes, config keys). */
  readonly symbols: readonly string[];
}

/** A cited path that was not a readable file then: kept, never stale. */
export interface Mention {
  readonly kind: 'mention';
  readonly path: string;
  readonly why: MentionReason;
}

export type Anchor = FileAnchor | Mention;

/** What a writer hands the store: the anchors of one memory. */
export interface NewAnchorSet {
  readonly how: AnchorHow;
  readonly anchors: readonly Anchor[];
}

/** A set as a writer hands it over, with the checks its fingerprints already prove (a cache seed). */
export type AnchorSetInput = NewAnchorSet & {
  readonly checks?: readonly Omit<AnchorCheck, 'memoryId'>[];
};

/** The state of one file anchor against the project as it is now. */
export const ANCHOR_STATES = [
  'fresh',
  'changed',
  'renamed',
  'deleted',
  'missing',
  'unknown',
] as const;
export type AnchorState = (typeof ANCHOR_STATES)[number];

/**
 * The verdict of one check. `missing`: the file is gone from the working tree but git still tracks it (an
 * unstaged delete or a plain `mv`), or git could not be asked; unlike `deleted` it never withholds a
 * memory. `unknown`: the file could not be read or the check's budget ran out; never stale.
 */
export interface AnchorVerdict {
  readonly state: AnchorState;
  /** `renamed`: where git followed the file to. */
  readonly renamedTo?: string;
  /** The history compared: the anchor's commit .. HEAD. */
  readonly range?: { readonly from: string; readonly to: string };
  /** Commits in `range` that touched the file. */
  readonly commits?: number;
  /** How many commits back the newest of them is (1 = HEAD itself). */
  readonly commitsAgo?: number;
  /** The change is in the working tree or index only, in no commit of `range`. */
  readonly uncommitted?: boolean;
  /** Anchor symbols the file no longer contains. */
  readonly missingSymbols?: readonly string[];
  /** Why git could tell no more (`no_git`, `budget`, `history_unavailable`) or why the state is unknown. */
  readonly note?: string;
}

/** A cached verdict: valid while the file's stat signature (and, unless fresh, HEAD) are unchanged. */
export interface AnchorCheck {
  readonly memoryId: MemoryId;
  readonly path: string;
  readonly checkedAt: string;
  /** Size, mtime, ctime and inode of the file when checked; `absent` when there was none. */
  readonly signature: string;
  readonly head: string | null;
  readonly verdict: AnchorVerdict;
}

/** A memory's anchors as stored, with the last check of each file anchor. */
export interface AnchorSet {
  readonly memoryId: MemoryId;
  readonly how: AnchorHow;
  /** ISO-8601 time the set was resolved. */
  readonly resolvedAt: string;
  readonly anchors: readonly Anchor[];
  readonly checks: readonly AnchorCheck[];
}

/** Anchors kept per memory; a memory citing more is anchored on its first ones. */
export const MAX_ANCHORS = 16;
/** Symbols kept per file anchor. */
export const MAX_SYMBOLS = 8;
const MAX_PATH = 1024;
const MAX_SYMBOL = 200;
const BLOB_ID = /^[0-9a-f]{40}$/;
/** A commit id: sha1 or sha256 object format. */
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** True for a project-relative path an anchor may hold. */
export function isAnchorPath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path.length > 0 &&
    path.length <= MAX_PATH &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    !path.includes('\u0000') &&
    !path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')
  );
}

/** True for a commit id as anchors and verdicts store it. */
export function isCommitId(value: unknown): value is string {
  return typeof value === 'string' && COMMIT_ID.test(value);
}

/** Array.isArray without the narrowing to `any[]`, for input that is typed but may be anything. */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}

/** Validates an anchor set before it reaches storage. Throws INVALID_INPUT naming the bad part. */
export function assertAnchorSet(set: NewAnchorSet): NewAnchorSet {
  const invalid = (why: string) => new MemoryError('INVALID_INPUT', `Invalid anchor set: ${why}.`);
  if (!(ANCHOR_HOWS as readonly string[]).includes(set.how)) throw invalid('unknown how');
  const anchors: readonly Anchor[] = set.anchors;
  if (!isList(anchors) || anchors.length > MAX_ANCHORS) {
    throw invalid(`at most ${MAX_ANCHORS} anchors`);
  }
  const paths = new Set<string>();
  for (const anchor of anchors) {
    if (!isAnchorPath(anchor.path)) throw invalid('a path is not project-relative');
    if (paths.has(anchor.path)) throw invalid(`${anchor.path} is listed twice`);
    paths.add(anchor.path);
    if (anchor.kind === 'mention') {
      if (!(MENTION_REASONS as readonly string[]).includes(anchor.why)) {
        throw invalid('unknown mention reason');
      }
      continue;
    }
    if (anchor.kind !== 'file') throw invalid('unknown anchor kind');
    if (!BLOB_ID.test(anchor.blobId)) throw invalid('a blob id is not 40 hex characters');
    if (!Number.isSafeInteger(anchor.size) || anchor.size < 0)
      throw invalid('a size is not a count');
    if (anchor.commit !== null && !isCommitId(anchor.commit)) throw invalid('a commit is not hex');
    if (anchor.source !== 'worktree' && anchor.source !== 'commit') throw invalid('unknown source');
    if (anchor.citedAs !== null && !isAnchorPath(anchor.citedAs)) {
      throw invalid('citedAs is not project-relative');
    }
    const symbols: readonly unknown[] = anchor.symbols;
    if (
      !isList(symbols) ||
      symbols.length > MAX_SYMBOLS ||
      symbols.some((s) => typeof s !== 'string' || s.length === 0 || s.length > MAX_SYMBOL)
    ) {
      throw invalid(`at most ${MAX_SYMBOLS} symbols of 1–${MAX_SYMBOL} characters`);
    }
  }
  return set;
}

/** The file anchors of a set, in order. */
export function fileAnchors(anchors: readonly Anchor[]): FileAnchor[] {
  return anchors.filter((anchor): anchor is FileAnchor => anchor.kind === 'file');
}

/** Validates a check before it is cached. Throws INVALID_INPUT. */
export function assertAnchorCheck(check: AnchorCheck): AnchorCheck {
  const invalid = (why: string) =>
    new MemoryError('INVALID_INPUT', `Invalid anchor check: ${why}.`);
  if (!isAnchorPath(check.path)) throw invalid('the path is not project-relative');
  if (typeof check.signature !== 'string' || check.signature.length > 200) {
    throw invalid('the signature is not a short string');
  }
  if (check.head !== null && !isCommitId(check.head)) throw invalid('HEAD is not a commit id');
  if (parseIsoTimestamp(check.checkedAt) === undefined) throw invalid('checkedAt is not ISO-8601');
  const verdict = check.verdict as AnchorVerdict | undefined;
  if (
    typeof verdict !== 'object' ||
    verdict === null ||
    !(ANCHOR_STATES as readonly string[]).includes(verdict.state)
  ) {
    throw invalid('the verdict has no known state');
  }
  return check;
}
