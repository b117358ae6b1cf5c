/**
 * Imported captures keep what the live hooks keep: the page a fetch read (so a purge by site reaches
 * it), the tool, and the transcript's own time as the memory's time. Rows an earlier import stored
 * without them are mended by `--mend`, which writes nothing new. Over the recorded transcript tree.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openRawSqlite } from '../../test/fixtures/sqlite/raw-sqlite.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { everything, openTestApp } from '../../test/helpers/test-app.js';
import { copyTranscriptTree, type TranscriptTree } from '../../test/helpers/transcript-fixtures.js';
import type { App } from '../app/open-app.js';
import type { Memory } from '../core/memory.js';
import { decideMany } from '../review/bulk-decision.js';
import { importStatePath } from './import-state.js';
import { importTranscripts } from './import-transcripts.js';

const tempDir = useTempDirs();
/** The import runs "now", long after the sessions: a memory dated now would be dated by the import. */
const NOW = new Date('2026-12-01T00:00:00.000Z');

async function withApp<T>(home: string, run: (app: App) => Promise<T>): Promise<T> {
  const app = await openTestApp(home, { clock: { now: () => NOW } });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

function importAll(app: App, tree: TranscriptTree, home: string, mend = false) {
  return importTranscripts(app, {
    root: tree.projects,
    dryRun: false,
    statePath: importStatePath(home),
    mend,
  });
}

/** Per memory: first line, tool, source URL, created time. */
function provenance(rows: readonly Memory[]): string[][] {
  return rows
    .map((m) => [
      m.content.split('\n')[0] ?? '',
      m.originTool ?? 'null',
      m.sourceUrl ?? 'null',
      m.createdAt,
    ])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** What the recorded tree must give: each tool result's own line time, and the page WebFetch read. */
const EXPECTED = [
  ['Command failed: npm run deploy:staging', 'Bash', 'null', '2026-08-21T10:02:30.000Z'],
  ['Command failed: npm test -- --grep orders', 'Bash', 'null', '2026-08-20T09:15:16.000Z'],
  [
    'Edited src/cart/cart.css: - .cart-row { display: flex; } / + .cart-row { display: flex; gap: 8px; } (1→1 lines)',
    'Edit',
    'null',
    '2026-08-22T14:00:08.000Z',
  ],
  [
    "Edited src/cart/cart.tsx: - import { CartRow } from './cart-row'; / + import { CartRow } from './cart-row'; (1→2 lines)",
    'Edit',
    'null',
    '2026-08-22T14:00:08.000Z',
  ],
  [
    'Edited src/cart/quantity-stepper.tsx: wrote 4 lines; first: export function QuantityStepper({ value, onChange }: Props) {',
    'Write',
    'null',
    '2026-08-22T14:00:06.000Z',
  ],
  [
    'Edited src/checkout/gift-card.tsx: - <input type="number" /> / + <input type="number" aria-label="Gift card amount" /> (1→1 lines)',
    'Edit',
    'null',
    '2026-08-22T14:04:10.000Z',
  ],
  [
    'Edited src/db/orders.sql.ts: - SELECT id, total FROM orders / + SELECT id, total, status FROM orders (1→1 lines)',
    'Edit',
    'null',
    '2026-08-20T09:15:01.000Z',
  ],
  [
    "Edited test/orders-status.test.ts: wrote 6 lines; first: import { listOrders } from '../src/routes/orders';",
    'Write',
    'null',
    '2026-08-20T09:18:21.000Z',
  ],
  [
    'Fetched https://evil.example/pg-errors:',
    'WebFetch',
    'https://evil.example/pg-errors',
    '2026-08-21T10:00:09.000Z',
  ],
  ['fixed: npm test -- --grep orders now passes', 'Bash', 'null', '2026-08-20T09:17:06.000Z'],
  [
    'Searched the web for "WAI-ARIA spinbutton quantity stepper":',
    'WebSearch',
    'null',
    '2026-08-22T14:02:03.000Z',
  ],
];

/** Turns the store's rows into what an import made before provenance was kept wrote: no source, dated now. */
function ageRows(home: string): void {
  const db = openRawSqlite(join(home, 'mnemo.db'));
  try {
    db.prepare(
      `UPDATE memories SET source_url = NULL, source_host = NULL, created_at = ?, updated_at = ?`,
    ).run(NOW.toISOString(), NOW.toISOString());
    // And one row without its tool, as a capture stored through a path that lost it.
    db.prepare("UPDATE memories SET origin_tool = NULL WHERE origin_tool = 'WebSearch'").run();
  } finally {
    db.close();
  }
}

describe('import claude-code provenance', () => {
  it('keeps, per imported memory, the tool, the fetched page and the transcript time', async () => {
    const root = tempDir();
    const tree = copyTranscriptTree(root);
    const home = join(root, 'home');
    await withApp(home, async (app) => {
      await importAll(app, tree, home);
      const { rows } = await everything(app);
      expect(provenance(rows)).toEqual(EXPECTED);
      // updatedAt follows (heat decays from it), and "since" filters tell the truth.
      expect(rows.every((m) => m.updatedAt === m.createdAt)).toBe(true);
      const since = await app.store.listMemories({
        createdAfter: '2026-08-22T00:00:00.000Z',
        limit: 50,
      });
      expect(new Set(since.map((m) => m.projectKey))).toEqual(new Set([tree.shop]));
    });
  });

  it('lets a purge by site delete the hostile page that came in through import', async () => {
    const root = tempDir();
    const tree = copyTranscriptTree(root);
    const home = join(root, 'home');
    await withApp(home, async (app) => {
      await importAll(app, tree, home);
      const report = await decideMany(app, { sourceDomains: ['evil.example'] }, 'purge', 'test');
      expect(report).toMatchObject({ changed: 1, outside: 0 });
      const { rows } = await everything(app);
      expect(rows.some((m) => m.content.includes('evil.example'))).toBe(false);
      expect(rows).toHaveLength(10);
    });
  });

  it('--mend gives rows an old import stored their source, tool and time, and writes nothing new', async () => {
    const root = tempDir();
    const tree = copyTranscriptTree(root);
    const home = join(root, 'home');
    await withApp(home, (app) => importAll(app, tree, home));
    ageRows(home);
    const ids = await withApp(home, async (app) => {
      const { rows } = await everything(app);
      expect(rows.every((m) => m.sourceUrl === null && m.createdAt === NOW.toISOString())).toBe(
        true,
      );
      // Nothing finds the hostile page by site any more: the defect this mends.
      expect(await app.store.countMemories({ sourceDomains: ['evil.example'] })).toBe(0);
      return rows.map((m) => m.id).sort();
    });
    await withApp(home, async (app) => {
      const report = await importAll(app, tree, home, true);
      expect(report.mend).toEqual({ mended: 11, unchanged: 0, unknown: 0 });
      expect(report.stored + report.merged).toBe(0);
      const { rows } = await everything(app);
      expect(rows.map((m) => m.id).sort()).toEqual(ids);
      expect(provenance(rows)).toEqual(EXPECTED);
      expect(rows.every((m) => m.accessCount === 0)).toBe(true);
      expect(await app.store.countMemories({ sourceDomains: ['evil.example'] })).toBe(1);
      const fetched = rows.find((m) => m.originTool === 'WebFetch');
      const trail = await app.store.auditTrail(fetched?.id ?? '');
      expect(trail.at(-1)).toMatchObject({
        action: 'mend',
        detail: {
          fields: ['createdAt', 'sourceUrl'],
          sourceUrl: 'https://evil.example/pg-errors',
          createdAt: '2026-08-21T10:00:09.000Z',
        },
      });
      const searched = rows.find((m) => m.content.startsWith('Searched the web'));
      expect((await app.store.auditTrail(searched?.id ?? '')).at(-1)?.detail).toMatchObject({
        fields: ['createdAt', 'originTool'],
      });
      // A second mend finds everything complete and changes nothing.
      const again = await importAll(app, tree, home, true);
      expect(again.mend).toEqual({ mended: 0, unchanged: 11, unknown: 0 });
    });
  });

  it('--mend leaves alone a row the transcripts did not store, and never dates a row later', async () => {
    const root = tempDir();
    const tree = copyTranscriptTree(root);
    const home = join(root, 'home');
    await withApp(home, async (app) => {
      await importAll(app, tree, home);
      const { rows } = await everything(app);
      const edit = rows.find((m) => m.originTool === 'Edit');
      if (edit === undefined) throw new Error('fixture has an Edit capture');
      await app.store.forget(edit.id);
      const report = await importAll(app, tree, home, true);
      expect(report.mend).toEqual({ mended: 0, unchanged: 10, unknown: 1 });
      const after = await everything(app);
      expect(after.rows).toHaveLength(10);
      const early = await app.store.mendProvenance(after.rows[0]?.id ?? '', {
        createdAt: '2027-01-01T00:00:00.000Z',
      });
      expect(early.changed).toEqual([]);
    });
  });
});
