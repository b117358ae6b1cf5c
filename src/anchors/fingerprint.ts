/**
 * Fingerprints of cited files: the git blob id of the bytes on disk (what `git hash-object` prints for a
 * file no filter rewrites), computed in-process so anchoring and checking need no `git` process, and the
 * stat signature that lets a later check skip re-hashing a file that has not been touched.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** Files larger than this are not hashed: anchored as `too_large` mentions, checked as unknown. */
export const MAX_ANCHOR_FILE_BYTES = 4 * 1024 * 1024;

/** The signature of a path that does not exist. */
export const ABSENT = 'absent';

/**
 * A file modified this recently may change again within the same mtime tick without its signature
 * changing (git's "racy" case), so its verdict is not cached. Coarse filesystems tick in seconds.
 */
const RACY_MS = 2000;

/** sha1 of `blob <size>\0<bytes>`: git's object id of a blob with these bytes. */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** What one stat of a path shows. */
export interface StatReading {
  /** `size:mtime:ctime:inode` in nanoseconds, or {@link ABSENT}. */
  readonly signature: string;
  readonly kind: 'file' | 'absent' | 'other';
  readonly size: number;
  /** True when the file changed too recently for its signature to be trusted later. */
  readonly racy: boolean;
}

/** Stats `path` (following symlinks). Never throws: an unreadable path reads as `other`. */
export function statPath(path: string, nowMs: number): StatReading {
  try {
    const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (stat === undefined) return { signature: ABSENT, kind: 'absent', size: 0, racy: false };
    const signature = `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}`;
    const changedMs = Number(stat.mtimeNs) / 1e6;
    return {
      signature,
      kind: stat.isFile() ? 'file' : 'other',
      size: Number(stat.size),
      racy: nowMs - changedMs < RACY_MS,
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A component of the path is a file (`a.ts/b.ts`): nothing exists there.
    if (code === 'ENOTDIR') return { signature: ABSENT, kind: 'absent', size: 0, racy: false };
    return { signature: `error:${code ?? 'unknown'}`, kind: 'other', size: 0, racy: false };
  }
}

/** A file's bytes and blob id, or why there are none. */
export type FileFingerprint =
  | { readonly kind: 'file'; readonly blobId: string; readonly size: number; readonly text: string }
  | { readonly kind: 'too_large' | 'unreadable' };

/** Reads and hashes a regular file of at most `maxBytes` (the caller has stat'ed it). */
export function fingerprintFile(path: string, size: number, maxBytes: number): FileFingerprint {
  if (size > maxBytes) return { kind: 'too_large' };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return { kind: 'unreadable' };
  }
  // The file may have grown between the stat and the read.
  if (bytes.length > maxBytes) return { kind: 'too_large' };
  return { kind: 'file', blobId: blobId(bytes), size: bytes.length, text: bytes.toString('utf8') };
}
