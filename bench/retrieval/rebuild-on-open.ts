/**
 * The one-off cost of a new analyser or context rule: how long the first open of a SQLite store takes
 * when its lexical index must be rebuilt (every context derived again, every row indexed), and who pays.
 *
 *   npm run bench:rebuild -- --store .bench-cache/latency-100000-hash-v1-256-v2.sqlite
 *
 * Works on a copy of `--store` (build one with `npm run bench:latency -- --memories 100000`). The copy's
 * index is marked as built by an earlier rule, so this checkout's rule rebuilds it as it would after an
 * upgrade; in the same run, the open with a deadline (a hook: `deferLongRebuild`) and a second open (no
 * rebuild) are the baselines. Prints the rows and the contexts' shape afterwards, so the rebuild is
 * checked, not only timed.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import Database from 'better-sqlite3';

import { isMemoryError } from '../../src/core/errors.js';
import { CONTEXT_BEFORE } from '../../src/core/text/capture-context.js';
import { LEXICAL_INDEX_VERSION } from '../../src/store/lexical-rules.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { ms, table } from './report.js';

const { values: args } = parseArgs({ options: { store: { type: 'string' } } });
if (args.store === undefined) {
  process.stderr.write('Usage: npm run bench:rebuild -- --store <a SQLite store file>\n');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-rebuild-'));
const path = join(dir, 'mnemo.db');
try {
  copyFileSync(resolve(args.store), path);
  const raw = new Database(path);
  raw.prepare("UPDATE lexical_state SET analyzer = 'earlier-rule' WHERE id = 1").run();
  raw.close();

  const timed = async (deferLongRebuild: boolean): Promise<{ ms: number; outcome: string }> => {
    const start = performance.now();
    try {
      await (await openSqliteStore({ path, deferLongRebuild })).close();
      return { ms: performance.now() - start, outcome: 'opened' };
    } catch (error) {
      if (!isMemoryError(error, 'STORE_BUSY')) throw error;
      return {
        ms: performance.now() - start,
        outcome: 'STORE_BUSY (left to the engine or a command)',
      };
    }
  };
  const load = loadavg()[0]!.toFixed(2);
  const hook = await timed(true);
  const first = await timed(false);
  const second = await timed(false);

  const check = new Database(path, { readonly: true });
  const state = check.prepare('SELECT analyzer, docs FROM lexical_state').get() as {
    analyzer: string;
    docs: number;
  };
  const shape = check
    .prepare(
      `SELECT count(*) AS rows, sum(context != '') AS withContext,
         sum(length(context) - length(replace(context, char(10), '')) >= ${CONTEXT_BEFORE}) AS after
       FROM memories`,
    )
    .get() as { rows: number; withContext: number; after: number };
  check.close();

  process.stdout.write(
    `# lexical index rebuild on open: ${shape.rows} memories, load average ${load} at start\n\n`,
  );
  process.stdout.write(
    table(
      ['open', 'ms', 'outcome'],
      [
        ['with a deadline (a hook), index stale', ms(hook.ms), hook.outcome],
        ['first open without one (engine, command)', ms(first.ms), first.outcome],
        ['second open (nothing to rebuild)', ms(second.ms), second.outcome],
      ],
    ),
  );
  process.stdout.write(
    `\nafter: index ${state.analyzer} (${state.analyzer === LEXICAL_INDEX_VERSION ? 'current' : 'NOT current'}), ` +
      `${state.docs} indexed, ${shape.withContext} with context, ${shape.after} reaching the first neighbour after\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
