/**
 * The composition root: the only place that reads the config, picks a store backend and builds the
 * objects every edge (CLI, hooks, MCP, web) receives as `app`. Edges never build their own
 * dependencies and never import a backend; this file loads the backend lazily so a command that fails
 * before touching the store never pays for the native driver.
 */
import { mkdirSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';

import { type Config, loadConfig, type LoadConfigOptions } from '../config/config.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import { createLogger, type Logger, type TextSink } from '../log/log.js';
import { newUlidFactory } from '../platform/ulid-factory.js';
import type { Clock } from '../ports/clock.js';
import type { IdSource } from '../ports/ids.js';
import { resolveProject } from '../project/project-key.js';
import { tallyCounter } from '../spool/spool-tally.js';
import type { MemoryStore } from '../store/store.js';
import type { Author } from '../store/write-rules.js';

/** Everything an edge needs. Close it when done: it releases the database file. */
export interface App {
  readonly config: Config;
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly log: Logger;
  /**
   * Keeps a telemetry counter for later when the store cannot take it now (busy): a tally file in the
   * spool, folded in by the next drain. False (logged) when that fails too. See spool/spool-tally.ts.
   */
  countLater(counter: string, count?: number): boolean;
  close(): Promise<void>;
}

export interface OpenAppOptions extends LoadConfigOptions {
  /** A resolved config; when given, `env`, `userHome` and `overrides` are ignored. */
  config?: Config;
  clock?: Clock;
  ids?: IdSource;
  log?: Logger;
  /** Where the default logger mirrors lines (the CLI's `--verbose`), and reports its own failures. */
  stderr?: TextSink;
  verbose?: boolean;
  /**
   * Hold the SQLite store's vectors in memory (the engine, a long-lived process): a faster vector leg
   * for a load at start. One-shot commands and hooks leave it off.
   */
  residentVectors?: boolean;
  /**
   * A process on a deadline (a hook): a long one-off rebuild of the SQLite store's lexical index is
   * refused (STORE_BUSY) rather than done here, and left to the engine or a command.
   */
  deferLongRebuild?: boolean;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** ULIDs whose time part comes from `clock`, monotonic within the process. */
export function createIdSource(clock: Clock): IdSource {
  const next = newUlidFactory();
  return { next: () => next(clock.now().getTime()) };
}

/**
 * Opens the app: resolves the config, creates `$MNEMO_HOME` if needed, opens the store. Throws
 * CONFIG_INVALID for a bad config, STORE_UNAVAILABLE when the home or the database cannot be opened,
 * and whatever the store raises on open (STORE_CORRUPT, STORE_BUSY, SCHEMA_TOO_NEW).
 */
export async function openApp(options: OpenAppOptions = {}): Promise<App> {
  const config = options.config ?? loadConfig(options);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createIdSource(clock);
  const log =
    options.log ??
    createLogger({
      file: config.logFile,
      level: config.logLevel,
      clock,
      stderr: options.stderr,
      stderrLevel: options.verbose === true ? 'debug' : 'silent',
    });
  ensureHome(config.home);
  const store = await openStore(
    config,
    {
      clock,
      ids,
      residentVectors: options.residentVectors,
      deferLongRebuild: options.deferLongRebuild,
    },
    log,
  );
  let closed = false;
  return {
    config,
    store,
    clock,
    ids,
    log,
    countLater: (counter, count) => tallyCounter(config, counter, log, count),
    async close() {
      if (closed) return;
      closed = true;
      await store.close();
    },
  };
}

/** Who this process writes as: the configured author or the login name, on this host. */
export function processAuthor(config: Pick<Config, 'author'>): Author {
  let user = config.author;
  if (user === null) {
    try {
      user = userInfo().username;
    } catch {
      // No passwd entry (some containers): the environment's name, else a placeholder that says so.
      user = process.env['USER']?.trim() || 'unknown-user';
    }
  }
  return { user, host: hostname() || 'unknown-host' };
}

/**
 * The schema v5 backfill's resolver: the portable key of a stored path key when that directory is, on
 * this machine and today, the root of a repository with a network remote; otherwise undefined.
 */
function portableKeyOf(key: string): string | undefined {
  try {
    const project = resolveProject(key);
    return project.root === key && project.key !== key ? project.key : undefined;
  } catch {
    return undefined;
  }
}

function ensureHome(home: string): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new MemoryError(
      'STORE_UNAVAILABLE',
      `Cannot create the mnemo home ${home} (${(error as Error).message}). Point MNEMO_HOME at a writable directory.`,
      { cause: error },
    );
  }
}

async function openStore(
  config: Config,
  {
    clock,
    ids,
    residentVectors,
    deferLongRebuild,
  }: { clock: Clock; ids: IdSource; residentVectors?: boolean; deferLongRebuild?: boolean },
  log: Logger,
): Promise<MemoryStore> {
  // Lazy imports: a process loads the driver of the configured backend only, so a hook on the SQLite
  // default never loads `pg`, and one on PostgreSQL never loads better-sqlite3.
  const author = processAuthor(config);
  if (config.databaseUrl !== null) {
    return openPostgres(
      config.databaseUrl,
      config,
      { clock, ids, author, deferLongRebuild: deferLongRebuild === true },
      log,
    );
  }
  const { openSqliteStore } = await import('../store/sqlite/open-sqlite-store.js');
  try {
    const store = await openSqliteStore({
      path: config.databasePath,
      clock,
      ids,
      busyTimeoutMs: config.busyTimeoutMs,
      author,
      rekeyProject: portableKeyOf,
      residentVectors: residentVectors === true,
      deferLongRebuild: deferLongRebuild === true,
      onVectorMirrorError: (what, error) =>
        log.warn(`resident vector mirror: ${what}`, { error: String(error) }),
    });
    log.debug('store opened', { path: config.databasePath, schemaVersion: store.schemaVersion });
    return store;
  } catch (error) {
    if (isMemoryError(error)) throw error;
    // The adapter translates the failures it understands; anything else on open still means the
    // file cannot serve as a store, which the user can act on.
    log.error('store open failed', { path: config.databasePath, error: String(error) });
    throw new MemoryError(
      'STORE_UNAVAILABLE',
      `Cannot open the store ${config.databasePath} (${(error as Error).message}). ` +
        'Check that it is a mnemo database you can read and write, or point MNEMO_HOME at another directory.',
      { cause: error },
    );
  }
}

async function openPostgres(
  url: string,
  config: Config,
  deps: { clock: Clock; ids: IdSource; author: Author; deferLongRebuild?: boolean },
  log: Logger,
): Promise<MemoryStore> {
  const { openPostgresStore } = await import('../store/postgres/open-postgres-store.js');
  try {
    const store = await openPostgresStore({
      url,
      ...deps,
      busyTimeoutMs: config.busyTimeoutMs,
      onIdleError: (error) => log.warn('postgres connection lost', { error: error.message }),
    });
    log.debug('store opened', {
      location: store.description.location,
      schemaVersion: store.schemaVersion,
    });
    return store;
  } catch (error) {
    log.error('store open failed', { backend: 'postgres', error: String(error) });
    if (isMemoryError(error)) throw error;
    throw new MemoryError(
      'STORE_UNAVAILABLE',
      `Cannot open the PostgreSQL store (${(error as Error).message}). Check MNEMO_DATABASE_URL, or ` +
        'unset it to use the local SQLite store.',
      { cause: error },
    );
  }
}

/**
 * Opens another store by URL as this app's author, for copying into it (`mnemo migrate-store`). Only
 * PostgreSQL URLs are targets. Throws CONFIG_INVALID for another URL, and what the store raises.
 */
export async function openTargetStore(
  url: string,
  app: Pick<App, 'config' | 'clock' | 'ids' | 'log'>,
): Promise<MemoryStore> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new MemoryError(
      'CONFIG_INVALID',
      'migrate-store copies into PostgreSQL: pass --to postgres://user:password@host:5432/database.',
    );
  }
  return openPostgres(
    url,
    app.config,
    { clock: app.clock, ids: app.ids, author: processAuthor(app.config) },
    app.log,
  );
}
