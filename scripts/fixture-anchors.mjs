// The v5 block of scripts/make-sqlite-fixture.mjs: code anchors as v5 wrote them (a write-time set with
// a file anchor, a symbol and a mention; a set replaced by a re-verification; a cached check). Kept apart
// so the fixture script stays readable; it writes exactly what the inline block did.
import { createHash } from 'node:crypto';

/** Writes the anchored memories into `s`; returns them as `remember` did. */
export async function writeAnchoredMemories(s, { alpha, tick, now }) {
  const blob = (text) =>
    createHash('sha1')
      .update(`blob ${Buffer.byteLength(text)}\0`)
      .update(text)
      .digest('hex');
  const commit = 'c0ffee'.padEnd(40, '0');
  const dbTs = 'export function openPool() {}\n';
  tick(5);
  const anchored = await s.remember(
    {
      content:
        'Decision: open connections with openPool() in src/db.ts; tests start scripts/pg.sh.',
      projectKey: alpha,
      kind: 'decision',
      origin: 'user',
    },
    {
      anchors: {
        how: 'write',
        anchors: [
          {
            kind: 'file',
            path: 'src/db.ts',
            citedAs: null,
            blobId: blob(dbTs),
            size: Buffer.byteLength(dbTs),
            commit,
            source: 'worktree',
            symbols: ['openPool'],
          },
          { kind: 'mention', path: 'scripts/pg.sh', why: 'missing' },
        ],
        checks: [
          {
            path: 'src/db.ts',
            checkedAt: new Date(now()).toISOString(),
            signature: `${Buffer.byteLength(dbTs)}:1:1:1`,
            head: commit,
            verdict: { state: 'fresh' },
          },
        ],
      },
    },
  );
  tick(5);
  const moved = await s.remember(
    {
      content: 'Cart totals are computed in src/cart.ts.',
      projectKey: alpha,
      kind: 'fact',
      origin: 'user',
    },
    {
      anchors: {
        how: 'write',
        anchors: [
          {
            kind: 'file',
            path: 'src/cart.ts',
            citedAs: null,
            blobId: blob('a\n'),
            size: 2,
            commit,
            source: 'worktree',
            symbols: [],
          },
        ],
      },
    },
  );
  tick(5);
  await s.saveAnchorSets([
    {
      memoryId: moved.memory.id,
      action: 'reverify',
      detail: { actor: 'cli', origin: 'user' },
      set: {
        how: 'reverify',
        anchors: [
          {
            kind: 'file',
            path: 'src/shop/cart.ts',
            citedAs: 'src/cart.ts',
            blobId: blob('b\n'),
            size: 2,
            commit: 'beef'.padEnd(40, '0'),
            source: 'worktree',
            symbols: [],
          },
        ],
      },
    },
  ]);
  return { anchored, moved };
}
