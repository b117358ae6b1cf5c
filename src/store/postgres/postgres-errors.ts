/**
 * Translates the PostgreSQL failures mnemo can explain into `MemoryError`s that name the fix; everything
 * else passes through untouched so the driver's `code` (SQLSTATE) survives. Works for `pg` (connection
 * errors carry Node's `code`, server errors a SQLSTATE) and PGlite (SQLSTATE only).
 */
import { isMemoryError, MemoryError } from '../../core/errors.js';

/** SQLSTATEs of https://www.postgresql.org/docs/current/errcodes-appendix.html used here. */
export const SQLSTATE = {
  uniqueViolation: '23505',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  insufficientPrivilege: '42501',
  invalidPassword: '28P01',
  invalidAuthorization: '28000',
  invalidCatalogName: '3D000',
  undefinedObject: '42704',
  featureNotSupported: '0A000',
  adminShutdown: '57P01',
  crashShutdown: '57P02',
  cannotConnectNow: '57P03',
  tooManyConnections: '53300',
  lockNotAvailable: '55P03',
  queryCanceled: '57014',
} as const;

/** Node socket errors that mean the server cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

/** True when the transaction may simply be run again: a serialization failure, a deadlock, or a lost race on a unique key. */
export function isRetryable(error: unknown): boolean {
  const code = sqlState(error);
  return (
    code === SQLSTATE.serializationFailure ||
    code === SQLSTATE.deadlockDetected ||
    code === SQLSTATE.uniqueViolation
  );
}

function isConnectionLoss(error: unknown): boolean {
  const code = sqlState(error);
  if (code !== undefined && NETWORK_CODES.has(code)) return true;
  if (code === SQLSTATE.adminShutdown || code === SQLSTATE.crashShutdown) return true;
  if (code === SQLSTATE.cannotConnectNow) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|server closed the connection/i.test(
    message,
  );
}

/**
 * Maps connection, authentication, missing-database and privilege failures to STORE_UNAVAILABLE with a
 * next step, and lock timeouts to STORE_BUSY; returns anything else as is. `where` names the server
 * without its password.
 */
export function translatePostgresError(error: unknown, where: string): unknown {
  if (isMemoryError(error)) return error;
  const code = sqlState(error);
  const cause = error instanceof Error ? error.message : String(error);
  const unavailable = (message: string): MemoryError =>
    new MemoryError('STORE_UNAVAILABLE', message, { cause: error, details: { where, code } });
  switch (code) {
    case SQLSTATE.invalidPassword:
    case SQLSTATE.invalidAuthorization:
      return unavailable(
        `PostgreSQL at ${where} refused the login (${cause}). Check the user name and password in ` +
          'MNEMO_DATABASE_URL (or "databaseUrl" in config.json), or ask the database administrator to ' +
          'allow this role to connect.',
      );
    case SQLSTATE.invalidCatalogName:
      return unavailable(
        `The database named in ${where} does not exist (${cause}). Create it (\`createdb <name>\`, or ` +
          '`CREATE DATABASE <name>` as an administrator) or fix the database name in MNEMO_DATABASE_URL.',
      );
    case SQLSTATE.insufficientPrivilege:
      return unavailable(
        `The PostgreSQL role of ${where} may not create mnemo's schema or tables (${cause}). Grant it ` +
          'the right once (`GRANT CREATE ON DATABASE <db> TO <role>`, or create the schema for it: ' +
          '`CREATE SCHEMA mnemo AUTHORIZATION <role>`), or connect as the schema owner.',
      );
    case SQLSTATE.tooManyConnections:
      return new MemoryError(
        'STORE_BUSY',
        `PostgreSQL at ${where} has no free connection (${cause}). Retry in a moment, or lower ` +
          'the pool size of the mnemo processes sharing it.',
        { cause: error },
      );
    case SQLSTATE.lockNotAvailable:
    case SQLSTATE.queryCanceled:
      return new MemoryError(
        'STORE_BUSY',
        `PostgreSQL at ${where} kept a lock past the timeout (${cause}). Retry in a moment.`,
        { cause: error },
      );
    default:
      if (isConnectionLoss(error)) {
        return unavailable(
          `Cannot reach PostgreSQL at ${where} (${cause}). Check that the server is running and ` +
            'reachable from here, and that MNEMO_DATABASE_URL names the right host and port. Hooks ' +
            'keep captures in the spool meanwhile; they are stored when the server is back.',
        );
      }
      return error;
  }
}
