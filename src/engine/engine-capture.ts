/**
 * The engine's side of a capture hand-off: a hook that finds the engine running sends it the capture plan
 * (src/capture) instead of opening the store itself, and returns as soon as the engine answers. The
 * answer comes only once the capture is safe: applied through the same path as a live hook or the spool
 * drain (taint first, then the write gate; origin and privileges recomputed from the channel fields), or,
 * when the store is busy, written to the durable spool, which this engine drains. A hook that gets no
 * answer spools the entry itself; a capture applied twice that way is merged by the store's content-hash
 * dedupe, as in the drain's crash window.
 */
import type { App } from '../app/open-app.js';
import { isMemoryError } from '../core/errors.js';
import { appendSpool } from '../spool/append-spool.js';
import { applySpoolRecord } from '../spool/apply-spool-record.js';
import type { SpoolEntry } from '../spool/spool-record.js';
import { countAfterCommit } from '../spool/spool-tally.js';
import type { CaptureResult } from './engine-protocol.js';

export interface CaptureHandlerOptions {
  /**
   * Called after a handed-off entry was applied and before the answer is written: the window in which an
   * engine that dies leaves the hook without an answer. Tests end the process here.
   */
  afterApply?: () => void;
}

/** The `capture` request handler of one engine run. */
export function createCaptureHandler(
  app: App,
  options: CaptureHandlerOptions = {},
): (entry: SpoolEntry) => Promise<CaptureResult> {
  return async (entry) => {
    try {
      await applySpoolRecord(entry, app);
    } catch (error) {
      if (!isMemoryError(error, 'STORE_BUSY') && !isMemoryError(error, 'STORE_UNAVAILABLE')) {
        throw error;
      }
      const spooled = appendSpool(app.config, [entry], { log: app.log });
      app.log.info('engine: store out of reach; handed-off capture spooled', {
        code: error.code,
        spooled: spooled.spooled,
      });
      return { outcome: spooled.spooled ? 'spooled' : 'refused' };
    }
    // After the commit, and never able to fail it: a counter error must not make a stored capture
    // look unstored (it would be spooled and applied a second time).
    if (entry.type === 'tool_result') await countAfterCommit(app, 'capture.handed_off');
    options.afterApply?.();
    return { outcome: 'stored' };
  };
}
