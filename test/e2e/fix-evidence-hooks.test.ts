/**
 * A captured fix carries its evidence (issue 24 item 2): the built `mnemo hook …` binary fed recorded
 * payloads — a failing Bash run, an Edit, the passing run — and the fix row read back from the real SQLite
 * file, whose bytes are searched for a secret the error held.
 */
import { existsSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { FIX_EDITS_HEADING, FIX_ERROR_HEADING } from '../../src/core/capture/fix-evidence.js';
import type { Memory } from '../../src/core/memory.js';
import { expectQuietHook, hookFixture } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';
import { FIXTURE_SECRET } from '../helpers/transcript-fixtures.js';

const newHome = useTestHomes();

function rows(home: TestHome): Promise<Memory[]> {
  return withStore(home.home, (app) =>
    app.store.listMemories({ limit: 100, quarantine: ['none', 'pending', 'approved'] }),
  );
}

function fileBytes(home: TestHome): Buffer {
  const parts = [home.dbPath, `${home.dbPath}-wal`].filter((path) => existsSync(path));
  return Buffer.concat(parts.map((path) => readFileSync(path)));
}

async function failEditPass(t: TestHome, error: string): Promise<void> {
  await expectQuietHook(
    t,
    'post-tool-use-failure',
    hookFixture('post-tool-use-failure-bash', { cwd: t.project, patch: { error } }),
  );
  await expectQuietHook(t, 'post-tool-use', hookFixture('post-tool-use-edit', { cwd: t.project }));
  await expectQuietHook(
    t,
    'post-tool-use',
    hookFixture('post-tool-use-bash-pass', { cwd: t.project }),
  );
}

describe('a captured fix (built binary)', () => {
  it('carries the error it fixed and the edit since the failure, as a local_exec fix', async () => {
    const t = newHome();
    await failEditPass(
      t,
      'Exit code 1\n  1 failing\n  GET /orders returns 200: error: column "status" does not exist',
    );
    const fix = (await rows(t)).find((row) => row.kind === 'fix');
    expect(fix?.content).toBe(
      [
        'fixed: npm test -- --grep orders now passes',
        FIX_ERROR_HEADING,
        'Exit code 1\n  1 failing\n  GET /orders returns 200: error: column "status" does not exist',
        FIX_EDITS_HEADING,
        '- Edited src/checkout/cart.ts: - const total = items.reduce((s, i) => s + i.price, 0); / ' +
          '+ const total = items.reduce((s, i) => s + i.price * i.qty, 0); (1→1 lines)',
      ].join('\n'),
    );
    // Its trust is its own channel's (Bash), whatever its evidence says.
    expect(fix).toMatchObject({ origin: 'local_exec', trustBand: 'low', originTool: 'Bash' });
  });

  it('redacts a secret the error held: neither the error nor the fix keeps it on disk', async () => {
    const t = newHome();
    await failEditPass(t, `Exit code 1\ncurl: 401 for token ${FIXTURE_SECRET}\n  1 failing`);
    const all = await rows(t);
    const fix = all.find((row) => row.kind === 'fix');
    expect(fix?.content).toContain(FIX_ERROR_HEADING);
    expect(fix?.content).toContain('[REDACTED:');
    expect(all.some((row) => row.content.includes(FIXTURE_SECRET))).toBe(false);
    expect(fileBytes(t).includes(FIXTURE_SECRET)).toBe(false);
  });

  it('bounds a long error to its end', async () => {
    const t = newHome();
    const lines = Array.from({ length: 11 }, (_, i) => `  at frame ${i} ${'x'.repeat(60)}`);
    await failEditPass(t, `Exit code 1\n${lines.join('\n')}`);
    const fix = (await rows(t)).find((row) => row.kind === 'fix');
    const content = fix?.content ?? '';
    const error = content.slice(
      content.indexOf(FIX_ERROR_HEADING) + FIX_ERROR_HEADING.length + 1,
      content.indexOf(`\n${FIX_EDITS_HEADING}`),
    );
    expect(error.length).toBeLessThanOrEqual(600);
    expect(error).toMatch(/^… /);
    expect(error).toContain('at frame 10');
    expect(error).not.toContain('Exit code 1');
  });

  it('lends nothing from an edit held for review', async () => {
    const t = newHome();
    await expectQuietHook(
      t,
      'post-tool-use-failure',
      hookFixture('post-tool-use-failure-bash', { cwd: t.project }),
    );
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    // A person's review state is what holds it here; the fix must not copy its text out of review.
    await withStore(t.home, async (app) => {
      const edit = (await app.store.listMemories({ limit: 10, kinds: ['capture'] }))[0];
      await app.store.setQuarantine(edit!.id, 'pending', 'test');
    });
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-bash-pass', { cwd: t.project }),
    );
    const fix = (await rows(t)).find((row) => row.kind === 'fix');
    expect(fix?.content).not.toContain('cart.ts');
    expect(fix?.content).toContain('Evidence withheld: 1 row held for review');
  });
});
