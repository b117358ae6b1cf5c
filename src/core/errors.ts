/**
 * The domain error type. Every layer inside mnemo throws `MemoryError`; each edge (CLI, hook, MCP, web)
 * translates it once into its own language. Codes are API: never rename one, only add.
 */
export type MemoryErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'STORE_UNAVAILABLE'
  | 'STORE_BUSY'
  | 'STORE_CORRUPT'
  | 'SCHEMA_TOO_NEW'
  | 'MIGRATION_FAILED'
  | 'EMBEDDING_FAILED'
  | 'UNSUPPORTED'
  | 'TIMEOUT'
  | 'CONFIG_INVALID'
  | 'CHECK_FAILED';

export interface MemoryErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

/**
 * Marks every MemoryError, so `instanceof` holds across copies of this module: a hook bundle and the
 * chunk it loads for the direct path each carry one (scripts/bundle-hooks.mjs).
 */
const MEMORY_ERROR = Symbol.for('mnemo.MemoryError');

export class MemoryError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && MEMORY_ERROR in value;
  }

  override readonly name = 'MemoryError';
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: MemoryErrorCode,
    message: string,
    options: MemoryErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details;
  }
}

// On the prototype, so an error's own properties (what tests and logs compare) stay as they were.
Object.defineProperty(MemoryError.prototype, MEMORY_ERROR, { value: true });

export function isMemoryError(error: unknown, code?: MemoryErrorCode): error is MemoryError {
  return error instanceof MemoryError && (code === undefined || error.code === code);
}
