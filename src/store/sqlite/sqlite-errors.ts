/**
 * Translates the SQLite failures mnemo can explain into `MemoryError`s with a next step; everything else
 * passes through untouched so the driver's `code` survives. Works for `better-sqlite3` (string codes such
 * as `SQLITE_BUSY_SNAPSHOT`) and `node:sqlite` (numeric `errcode`).
 */
import { isMemoryError, MemoryError } from '../../core/errors.js';

// Primary result codes from https://sqlite.org/rescode.html; extended codes keep them in the low byte.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;
const SQLITE_CANTOPEN = 14;
const SQLITE_CONSTRAINT = 19;
const SQLITE_FULL = 13;

function primaryCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return errcode & 0xff;
  if (typeof code !== 'string') return undefined;
  if (code.startsWith('SQLITE_BUSY')) return SQLITE_BUSY;
  if (code.startsWith('SQLITE_LOCKED')) return SQLITE_LOCKED;
  if (code.startsWith('SQLITE_CORRUPT')) return SQLITE_CORRUPT;
  if (code === 'SQLITE_NOTADB') return SQLITE_NOTADB;
  if (code.startsWith('SQLITE_CANTOPEN')) return SQLITE_CANTOPEN;
  if (code.startsWith('SQLITE_CONSTRAINT')) return SQLITE_CONSTRAINT;
  if (code === 'SQLITE_FULL') return SQLITE_FULL;
  return undefined;
}

/** True for SQLITE_BUSY/SQLITE_LOCKED (and their extended codes): another connection holds the lock. */
export function isBusyError(error: unknown): boolean {
  const code = primaryCode(error);
  return code === SQLITE_BUSY || code === SQLITE_LOCKED;
}

/** True for a UNIQUE/PRIMARY KEY/CHECK violation: callers turn the ones they expect into CONFLICT. */
export function isConstraintError(error: unknown): boolean {
  return primaryCode(error) === SQLITE_CONSTRAINT;
}

/**
 * Maps BUSY/LOCKED to STORE_BUSY, CORRUPT/NOTADB to STORE_CORRUPT, CANTOPEN and FULL (disk full) to
 * STORE_UNAVAILABLE;
 * returns anything else as is.
 */
export function translateSqliteError(error: unknown, path: string): unknown {
  if (isMemoryError(error)) return error;
  switch (primaryCode(error)) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return new MemoryError(
        'STORE_BUSY',
        `The memory store ${path} is locked by another mnemo process. Retry in a moment, or raise ` +
          'the busy timeout if this keeps happening.',
        { cause: error },
      );
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return new MemoryError(
        'STORE_CORRUPT',
        `The memory store ${path} is damaged or is not a mnemo database. Nothing was read from it. ` +
          `Backups sit beside it as ${path}.bak-*: stop the engine (\`mnemo serve --stop\`) and run ` +
          '`mnemo restore` (it keeps the damaged file aside), or point MNEMO_HOME at another directory.',
        { cause: error, details: { path } },
      );
    case SQLITE_FULL:
      // SQLite rolls the transaction back: nothing of the failed write is in the file.
      return new MemoryError(
        'STORE_UNAVAILABLE',
        `The disk holding the memory store ${path} is full. Nothing of this write was stored (it was ` +
          'rolled back); free some space and retry.',
        { cause: error, details: { path, reason: 'disk_full' } },
      );
    case SQLITE_CANTOPEN:
      return new MemoryError(
        'STORE_UNAVAILABLE',
        `Cannot open the memory store ${path}. Check that the path is a file in a directory you can ` +
          'write, or point MNEMO_HOME at another directory.',
        { cause: error, details: { path } },
      );
    default:
      return error;
  }
}
