import { describe, expect, it } from 'vitest';

import { MemoryError, type MemoryErrorCode } from '../../core/errors.js';
import { isConstraintError, translateSqliteError } from './sqlite-errors.js';

const driverError = (fields: Record<string, unknown>) => Object.assign(new Error('driver'), fields);

describe('translateSqliteError', () => {
  const cases: [string, Record<string, unknown>, MemoryErrorCode][] = [
    ['better-sqlite3 BUSY', { code: 'SQLITE_BUSY' }, 'STORE_BUSY'],
    ['better-sqlite3 BUSY_SNAPSHOT', { code: 'SQLITE_BUSY_SNAPSHOT' }, 'STORE_BUSY'],
    ['better-sqlite3 LOCKED', { code: 'SQLITE_LOCKED_SHAREDCACHE' }, 'STORE_BUSY'],
    ['node:sqlite BUSY_SNAPSHOT', { code: 'ERR_SQLITE_ERROR', errcode: 517 }, 'STORE_BUSY'],
    ['better-sqlite3 CORRUPT', { code: 'SQLITE_CORRUPT' }, 'STORE_CORRUPT'],
    ['better-sqlite3 CORRUPT_VTAB', { code: 'SQLITE_CORRUPT_VTAB' }, 'STORE_CORRUPT'],
    ['better-sqlite3 NOTADB', { code: 'SQLITE_NOTADB' }, 'STORE_CORRUPT'],
    ['node:sqlite NOTADB', { code: 'ERR_SQLITE_ERROR', errcode: 26 }, 'STORE_CORRUPT'],
    ['better-sqlite3 CANTOPEN', { code: 'SQLITE_CANTOPEN' }, 'STORE_UNAVAILABLE'],
  ];
  for (const [label, fields, code] of cases) {
    it(`maps ${label} to ${code}, keeping the driver error as cause`, () => {
      const original = driverError(fields);
      const translated = translateSqliteError(original, '/data/mnemo.db');
      expect(translated).toBeInstanceOf(MemoryError);
      expect(translated).toMatchObject({ code, cause: original });
      expect((translated as Error).message).toContain('/data/mnemo.db');
    });
  }

  it('passes other errors and MemoryErrors through unchanged', () => {
    for (const error of [
      driverError({ code: 'SQLITE_ERROR' }),
      driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }),
      new TypeError('x'),
      'text',
      null,
      new MemoryError('NOT_FOUND', 'gone'),
    ]) {
      expect(translateSqliteError(error, '/p')).toBe(error);
    }
  });

  it('recognises constraint violations from both drivers', () => {
    expect(isConstraintError(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(true);
    expect(isConstraintError(driverError({ errcode: 2067 }))).toBe(true);
    expect(isConstraintError(driverError({ code: 'SQLITE_BUSY' }))).toBe(false);
  });
});
