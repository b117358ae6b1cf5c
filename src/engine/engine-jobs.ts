/**
 * The engine's background work, one bounded step per tick: drain the capture spool, then embed one
 * batch of memories that have no vector of the engine's model (every capture: hooks never embed). A
 * failing step is logged and retried on a later tick; a busy store only postpones it. An embedder that
 * cannot load is dropped for the rest of the run (recall then runs without the vector leg). About once
 * an hour it also checks whether the daily backup of a SQLite store is due, and takes it in a process
 * of its own (engine-backup.ts).
 */
import type { App } from '../app/open-app.js';
import { type StoreBackups, storeBackups } from '../app/store-backups.js';
import { isMemoryError } from '../core/errors.js';
import type { Embedder } from '../ports/embedder.js';
import { adoptVectorRule, embedPending } from '../retrieval/embed-pending.js';
import { type DrainReport, drainSpool } from '../spool/drain-spool.js';
import { type BackupLauncher, packageLauncher, takeDailyBackup } from './engine-backup.js';

/** What one tick did; `more` asks for the next tick at once (a backlog of embeddings). */
export interface TickReport {
  drained: number;
  embedded: number;
  more: boolean;
}

export interface EngineJobs {
  /** One step of every job. */
  tick(): Promise<TickReport>;
  /** Drains the spool now (after any drain already running), for the `drain` request. */
  drainNow(): Promise<DrainReport>;
  /**
   * Records the embedder's vector rule in the store, dropping vectors of an earlier rule (embed-pending.ts);
   * false when the store refused (logged; the next tick tries again).
   */
  adoptRule(): Promise<boolean>;
  /**
   * The embedder for recall: undefined once it failed to load, and until its vector rule is adopted, so
   * recall never ranks vectors of an earlier rule.
   */
  embedder(): Embedder | undefined;
  /** The words leg's embedder once its table is ready (built on the first tick when missing). */
  wordEmbedder(): Embedder | undefined;
  /** Resolves once background work started by a tick (a daily backup) has finished. */
  settle(): Promise<void>;
}

export interface EngineJobsOptions {
  app: App;
  embedder: Embedder | undefined;
  /** Memories embedded per tick. */
  batchSize: number;
}

/** How often the engine asks whether a daily backup is due (it takes one only when a day has passed). */
export const BACKUP_CHECK_MS = 60 * 60 * 1000;
/** Word vectors embedded per tick. */
const WORDS_BATCH = 500;

/** Memories that yield no vector are listed again each tick; this many are stepped over at most. */
const MAX_STUCK = 1000;

/** Creates the jobs of one engine run. */
export function createEngineJobs(options: EngineJobsOptions): EngineJobs {
  const { app } = options;
  let embedder = options.embedder;
  let adopted = false;
  let stuck = 0;
  let words: Embedder | undefined;
  let wordsOff = false;
  let draining: Promise<DrainReport> | undefined;
  let backups: Promise<StoreBackups | null> | undefined;
  let launcher: BackupLauncher | undefined;
  let nextBackupCheck = 0;
  let backingUp: Promise<void> | undefined;

  // Started, not awaited: the copy runs in a process of its own (engine-backup.ts) while ticks go on.
  // A failed backup is logged and retried at the next check; it never stops the engine's other work.
  const backupIfDue = (): void => {
    const now = app.clock.now().getTime();
    if (backingUp !== undefined || now < nextBackupCheck) return;
    nextBackupCheck = now + BACKUP_CHECK_MS;
    backingUp = (async () => {
      try {
        backups ??= storeBackups(app.config);
        const store = await backups;
        if (store === null) return;
        const report = await takeDailyBackup(app, store, (launcher ??= packageLauncher()));
        if (report !== null && report.taken !== null) {
          app.log.info('engine: daily backup', {
            path: report.taken,
            memories: report.check?.memories ?? null,
            removed: report.removed,
          });
        }
      } catch (error) {
        app.log.error('engine: daily backup failed', { error: String(error) });
      } finally {
        backingUp = undefined;
      }
    })();
  };

  const drainNow = async (): Promise<DrainReport> => {
    while (draining !== undefined) await draining.catch(() => undefined);
    const run = drainSpool(app);
    draining = run;
    try {
      return await run;
    } finally {
      draining = undefined;
    }
  };

  const embedBatch = async (model: Embedder): Promise<{ embedded: number; more: boolean }> => {
    try {
      const report = await embedPending(app.store, model, {
        max: options.batchSize + stuck,
        batchSize: options.batchSize,
      });
      adopted = true;
      stuck = Math.min(MAX_STUCK, report.skipped);
      return { embedded: report.embedded, more: report.embedded >= options.batchSize };
    } catch (error) {
      if (isMemoryError(error, 'STORE_BUSY')) return { embedded: 0, more: false };
      if (isMemoryError(error, 'EMBEDDING_FAILED') || !isMemoryError(error)) {
        app.log.error('engine: the embedder failed; recall continues without the vector leg', {
          model: model.model,
          error: String(error),
        });
        embedder = undefined;
        return { embedded: 0, more: false };
      }
      throw error;
    }
  };

  // The words leg, once its table is built (`mnemo model words`: converting the package's JSON takes
  // ~10 s and ~1 GB, too much to do unasked in a background process): each tick embeds a batch of
  // memories without a word vector. Its model is re-opened every tick so the store's common component
  // is re-estimated when the store has grown. Without a table the leg stays off for this run.
  const wordsStep = async (): Promise<number> => {
    if (wordsOff) return 0;
    const { openWordLeg } = await import('../retrieval/word-vectors.js');
    const leg = await openWordLeg(app.store, app.config.home, { convert: false });
    if (leg.embedder === undefined) {
      wordsOff = true;
      app.log.warn('engine: words leg off', { why: leg.skipped });
      return 0;
    }
    words = leg.embedder;
    const report = await embedPending(app.store, words, {
      max: WORDS_BATCH,
      batchSize: WORDS_BATCH,
      slot: 'extra',
    });
    return report.embedded;
  };

  return {
    async tick() {
      let drained = 0;
      try {
        const report = await drainNow();
        drained = report.applied;
      } catch (error) {
        app.log.error('engine: spool drain failed', { error: String(error) });
      }
      let embedded = 0;
      let more = false;
      if (embedder !== undefined) {
        try {
          ({ embedded, more } = await embedBatch(embedder));
        } catch (error) {
          app.log.error('engine: embedding step failed', { error: String(error) });
        }
      }
      try {
        embedded += await wordsStep();
      } catch (error) {
        app.log.error('engine: word-vector step failed', { error: String(error) });
      }
      if (embedded > 0) app.log.debug('engine: embedded', { embedded });
      backupIfDue();
      return { drained, embedded, more };
    },
    settle: async () => {
      await backingUp;
    },
    drainNow,
    async adoptRule() {
      if (embedder === undefined || adopted) return adopted;
      try {
        const report = await adoptVectorRule(app.store, embedder);
        if (report.dropped > 0) {
          app.log.info('engine: dropped vectors of an older rule; rebuilding them', {
            model: embedder.model,
            dropped: report.dropped,
            rule: report.rule,
          });
        }
        adopted = true;
      } catch (error) {
        app.log.error('engine: could not record the vector rule; vector leg off until it is', {
          model: embedder.model,
          error: String(error),
        });
      }
      return adopted;
    },
    embedder: () => (adopted ? embedder : undefined),
    wordEmbedder: () => words,
  };
}
