/**
 * The spool writer, used by a capture hook that cannot reach the store in time (threat model W11): it
 * writes the hook's records to one new file, fsync'd and published by rename before the hook exits, so
 * a capture is either durably spooled or visibly refused. This is the spool's single choke point for
 * secrets: every free-text field is redacted here, before a byte reaches the disk, and a channel field
 * (tool name, session id, project key) that redaction would change is refused rather than altered,
 * because the drain classifies the origin from it. The spool is bounded: past `spool.maxBytes` a
 * capture is refused, logged and counted (`capture.spool_full`), never queued without limit.
 */
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import * as v from 'valibot';

import type { Config } from '../config/config.js';
import { sourceUrlOf } from '../core/origin/source-url.js';
import { sanitiseForStorage } from '../core/redact/redact-secrets.js';
import type { Logger } from '../log/log.js';
import { ensurePrivateDir, fsyncDir, writeNewFileSynced } from '../platform/private-fs.js';
import { newUlidFactory } from '../platform/ulid-factory.js';
import { spoolPaths, spoolUsage } from './spool-paths.js';
import {
  SPOOL_RECORD_VERSION,
  type SpoolEntry,
  type SpoolRecord,
  spoolRecordSchema,
} from './spool-record.js';
import { appendTallyByte } from './spool-tally.js';

/** Largest spool file one hook may write. Captures are a few KiB; this only stops a runaway writer. */
export const MAX_SPOOL_FILE_BYTES = 1024 * 1024;

/** Why nothing was spooled. */
export type SpoolRefusal = 'spool_full' | 'unsafe_field' | 'too_large' | 'unsafe_dir';

/** The outcome of {@link appendSpool}. */
export type AppendOutcome =
  | { spooled: true; file: string; entries: number }
  | { spooled: false; reason: SpoolRefusal };

export interface AppendDeps {
  log: Logger;
  now?: () => Date;
}

let idFactory: ReturnType<typeof newUlidFactory> | undefined;
/** A monotonic ULID. The factory is made on first use: making it loads the OS random source. */
function nextId(seedTime?: number): string {
  idFactory ??= newUlidFactory();
  return idFactory(seedTime);
}

/** True when redaction would leave `value` unchanged: a channel field we may write as it is. */
function clean(value: string | null): boolean {
  return value === null || sanitiseForStorage(value).text === value;
}

/** The entry as it may touch the disk: free text redacted, or undefined when a channel field is unsafe. */
function redactEntry(entry: SpoolEntry): SpoolEntry | undefined {
  if (!clean(entry.sessionId)) return undefined;
  if (entry.type === 'refused_tool_result') return entry;
  if (!clean(entry.toolName)) return undefined;
  if ('skip' in entry.capture) return entry;
  if (!clean(entry.capture.projectKey)) return undefined;
  const tags: string[] = [];
  for (const tag of entry.capture.tags) {
    const cleanTag = sanitiseForStorage(tag);
    // As the write path does: a tag that held a secret is dropped, not stored redacted.
    if (cleanTag.redactions === 0) tags.push(cleanTag.text);
  }
  // The directory only anchors the capture: one that redaction would change is left out (the memory is
  // then stored pending), not refused like a channel field. The source address is channel data too: kept
  // only in the normalised form, which holds no secret.
  const { cwd, sourceUrl, ...capture } = entry.capture;
  return {
    ...entry,
    capture: {
      ...capture,
      ...(cwd === undefined || !clean(cwd) ? {} : { cwd }),
      ...(sourceUrl !== undefined && sourceUrlOf(sourceUrl) === sourceUrl ? { sourceUrl } : {}),
      content: sanitiseForStorage(entry.capture.content).text,
      tags,
    },
  };
}

function countRefusal(fullCount: string, log: Logger): void {
  try {
    appendTallyByte(fullCount);
  } catch (error) {
    log.warn('spool: refusal not counted', { error: String(error) });
  }
}

/**
 * Writes `entries` as one spool file. Synchronous, so a hook can call it even at its deadline. Never
 * throws for a refusal (the outcome says why); throws only unexpected file-system errors.
 */
export function appendSpool(
  config: Pick<Config, 'home' | 'spool'>,
  entries: readonly SpoolEntry[],
  deps: AppendDeps,
): AppendOutcome {
  const paths = spoolPaths(config.home);
  try {
    ensurePrivateDir(paths.dir);
  } catch (error) {
    deps.log.error('spool: directory refused; capture not spooled', { error: String(error) });
    return { spooled: false, reason: 'unsafe_dir' };
  }
  const at = (deps.now?.() ?? new Date()).toISOString();
  const records: SpoolRecord[] = [];
  for (const entry of entries) {
    const safe = redactEntry(entry);
    if (safe === undefined) {
      deps.log.warn('spool: a channel field holds a secret-shaped value; capture not spooled', {
        type: entry.type,
      });
      return { spooled: false, reason: 'unsafe_field' };
    }
    // Validated on the way out too, so the drain never meets a line this writer produced wrongly.
    records.push(
      v.parse(spoolRecordSchema, {
        ...safe,
        v: SPOOL_RECORD_VERSION,
        id: nextId(Date.parse(at)),
        at,
      }),
    );
  }
  const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_SPOOL_FILE_BYTES) {
    deps.log.warn('spool: capture too large to spool', { bytes });
    return { spooled: false, reason: 'too_large' };
  }
  const usage = spoolUsage(paths);
  if (usage.bytes + bytes > config.spool.maxBytes) {
    countRefusal(paths.fullCount, deps.log);
    deps.log.warn('capture.spool_full: spool over its size cap; capture refused', {
      spoolBytes: usage.bytes,
      spoolFiles: usage.files,
      maxBytes: config.spool.maxBytes,
    });
    return { spooled: false, reason: 'spool_full' };
  }
  const name = `${records[0]?.id ?? nextId()}.jsonl`;
  const tmp = join(paths.dir, `.tmp-${name}-${process.pid}`);
  writeNewFileSynced(tmp, text, 0o600);
  const file = join(paths.dir, name);
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  fsyncDir(paths.dir);
  return { spooled: true, file, entries: records.length };
}
