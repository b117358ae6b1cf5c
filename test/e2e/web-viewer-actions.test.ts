/**
 * Every viewer action of issue 24 in a real browser: the built `mnemo ui` serves a seeded store whose
 * project is a git repository keyed by its remote, headless Chromium drives the page, and each outcome
 * is checked in the store itself (rows, audit entries), never only on the page.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { writeMemory } from '../../src/write/write-memory.js';
import { writeDepsFrom } from '../../src/write/write-policy.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';
import { useViewerBrowser } from '../helpers/viewer-browser.js';
import { seedViewerStore } from '../helpers/web-seed.js';

const SHOTS = fileURLToPath(new URL('../../.ci-out/web-ui/', import.meta.url));
const REMOTE = 'https://github.com/acme/api.git';
const KEY = 'git:github.com/acme/api';

const newHome = useTestHomes();
const viewer = useViewerBrowser();

interface Opened {
  t: TestHome;
  dir: string;
  ids: Record<string, string>;
  page: Page;
  base: string;
  problems: string[];
  dialogs: string[];
}

/** A seeded store keyed by a git remote, `mnemo ui` started in its repository, a page on it. */
async function open(name: string): Promise<Opened> {
  const t = newHome();
  const dir = join(t.project, '..', name);
  mkdirSync(dir);
  const { ids, project } = await seedViewerStore(t.home, dir, new Date().toISOString(), {
    remote: REMOTE,
  });
  expect(project).toBe(KEY);
  const ui = await viewer.startUi(t, dir);
  const page = await (await viewer.launch()).newPage({ viewport: { width: 1366, height: 900 } });
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await page.goto(ui.url);
  await page.waitForSelector('.tiles');
  return { t, dir, ids, page, base: ui.url.split('#')[0] ?? '', problems, dialogs };
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function rowIds(page: Page): Promise<string[]> {
  await page.waitForSelector('.memory-list, .empty');
  const items = page.locator('.memory-item');
  const ids: string[] = [];
  for (let i = 0; i < (await items.count()); i += 1) {
    ids.push((await items.nth(i).getAttribute('data-id')) ?? '');
  }
  return ids;
}

/** Waits for the memory list to settle on `expected` ids after a filter change. */
async function expectRows(page: Page, expected: string[]): Promise<void> {
  await expect.poll(async () => [...(await rowIds(page))].sort()).toEqual([...expected].sort());
}

describe('web viewer actions in Chromium (issue 24)', () => {
  it('checks anchors of a project keyed by its git remote, and filters by staleness, origin, kind, source, session and date', async () => {
    const { t, page, base, ids, problems } = await open('acme-remote');
    expect(await page.locator('.project-picker select').inputValue()).toBe(KEY);

    // The memory page checks its cited file against the repository `mnemo ui` runs in.
    await page.goto(`${base}#/memory/${ids['cache']}`);
    await page.waitForSelector('article.detail');
    expect(await page.locator('.refs').innerText()).toMatch(/src\/legacy\/cache\.ts\s+changed/);
    expect(await page.locator('.page-head + .badges').innerText()).toContain('stale');

    // The list labels it, and the staleness filter finds it (and only it) or the fresh ones.
    await page.goto(`${base}#/memories`);
    await page.waitForSelector(`.memory-item[data-id="${ids['cache']}"] .stale-badge`);
    await page.selectOption('label:has-text("Staleness") select', 'stale');
    await expectRows(page, [ids['cache']!]);
    await page.selectOption('label:has-text("Staleness") select', 'fresh');
    await expectRows(page, [ids['pool']!]);
    await page.selectOption('label:has-text("Staleness") select', '');

    await page.selectOption('label:has-text("Origin") select', 'network');
    await expectRows(page, [
      ids['evil-install']!,
      ids['evil-mirror']!,
      ids['pg-docs']!,
      ids['pg-pool']!,
    ]);
    await page.fill('label:has-text("Source") input', 'node-postgres.com');
    await page.press('label:has-text("Source") input', 'Enter');
    await expectRows(page, [ids['pg-docs']!, ids['pg-pool']!]);
    expect(page.url()).toContain('source=node-postgres.com');
    await page.fill('label:has-text("Source") input', 'https://evil-cdn.example/mirror');
    await page.press('label:has-text("Source") input', 'Enter');
    await expectRows(page, [ids['evil-mirror']!]);

    await page.goto(`${base}#/memories?session=sess-7f3a`);
    await expectRows(page, [ids['fix']!]);
    await page.selectOption('label:has-text("Kind") select', 'fix');
    await expectRows(page, [ids['fix']!]);
    await page.selectOption('label:has-text("Kind") select', 'decision');
    await expectRows(page, []);

    // Dates: the seeded store ends today and started 13 days ago.
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const inWindow = await withStore(t.home, async (app) =>
      (
        await app.store.listMemories({
          scope: { projectKey: KEY, includeGlobal: true },
          createdAfter: `${day(13)}T00:00:00.000Z`,
          createdBefore: `${day(11)}T23:59:59.999Z`,
          limit: 100,
        })
      ).map((m) => m.id),
    );
    expect(inWindow.length).toBeGreaterThan(0);
    await page.goto(`${base}#/memories`);
    await page.fill('label:has-text("From") input', day(13));
    await page.fill('label:has-text("Until") input', day(11));
    await expectRows(page, inWindow);
    expect(inWindow).toContain(ids['pnpm']);
    expect(inWindow).not.toContain(ids['global']);
    await shot(page, 'memories-filters');
    expect(problems).toEqual([]);
  }, 180_000);

  it('edits text and tags, pins, supersedes and forgets from the memory page, each audited as the viewer, with project counts kept current', async () => {
    const { t, page, base, ids, problems } = await open('acme-edit');
    const picker = page.locator('.project-picker select option:checked');
    const before = await picker.innerText();
    const countOf = (label: string) => Number(/\((\d+)\)/.exec(label)?.[1]);

    // Edit the text and the tags in place: a secret typed into it never reaches the disk.
    await page.goto(`${base}#/memory/${ids['cache']}`);
    await page.click('.edit-panel button:has-text("Edit")');
    await page.fill(
      '#edit-text',
      'Cache keys are built in src/legacy/cache.ts; bump CACHE_VERSION. Token ghp_abcdefghijklmnopqrstuvwxyz0123456789 is not for here.',
    );
    await page.fill('#edit-tags', 'cache, legacy');
    await page.click('.edit-form button:has-text("Save")');
    await expect.poll(() => page.locator('.status').innerText()).toContain(`Saved ${ids['cache']}`);
    await expect
      .poll(() => page.locator('pre.content').innerText())
      .toContain('bump CACHE_VERSION.');

    // Pin an eligible memory, and be told why an untrusted one cannot be pinned.
    await page.click('.edit-panel button:has-text("Pin")');
    await expect
      .poll(() => page.locator('.status').innerText())
      .toContain(`Pinned ${ids['cache']}`);
    await page.goto(`${base}#/memory/${ids['pg-docs']}`);
    await page.waitForSelector('.edit-panel');
    await page.click('.edit-panel button:has-text("Pin")');
    await expect.poll(() => page.locator('.edit-panel').innerText()).toContain('cannot be pinned');

    // Supersede: the person's own text replaces it, the old memory stays in history.
    await page.goto(`${base}#/memory/${ids['pool']}`);
    await page.click('.edit-panel button:has-text("Supersede")');
    await page.fill('#edit-text', 'The connection pool size is 30 since the second load test.');
    await page.click('.edit-form button:has-text("Replace")');
    await expect
      .poll(() => page.locator('.status').innerText())
      .toContain(`Replaced ${ids['pool']}`);
    await expect.poll(() => page.locator('h1').innerText()).toContain('pool size is 30');
    const replacement = /#\/memory\/([0-9A-Z]{26})/.exec(page.url())?.[1] ?? '';
    await expect
      .poll(() => page.locator('section[aria-labelledby="history-title"]').innerText())
      .toContain('pool size is 20');

    // Forget: gone from the store, and the picker's count drops with it.
    await page.goto(`${base}#/memory/${ids['fix']}`);
    await page.click('.edit-panel button:has-text("Forget")');
    await expect.poll(() => page.locator('.status').innerText()).toContain(`Forgot ${ids['fix']}`);
    await expect.poll(async () => countOf(await picker.innerText())).toBe(countOf(before) - 1);
    await shot(page, 'memory-edited');

    const state = await withStore(t.home, async (app) => ({
      edited: await app.store.getMemory(ids['cache']!),
      editTrail: await app.store.auditTrail(ids['cache']!),
      old: await app.store.getMemory(ids['pool']!),
      current: await app.store.getMemory(replacement),
      forgotten: await app.store.getMemory(ids['fix']!),
      forgetTrail: await app.store.auditTrail(ids['fix']!),
      untrusted: await app.store.getMemory(ids['pg-docs']!),
    }));
    expect(state.edited?.content).toContain('[REDACTED:');
    expect(state.edited?.content).not.toContain('ghp_abcdefghijklmnop');
    expect(state.edited).toMatchObject({ tags: ['cache', 'legacy'], pinned: true, origin: 'user' });
    const updates = state.editTrail.filter((e) => e.action === 'update');
    expect(updates.map((e) => e.detail['fields'])).toEqual([['content', 'tags'], ['pinned']]);
    for (const entry of updates) expect(String(entry.detail['actor'])).toMatch(/^web-ui:/);
    expect(state.old?.supersededBy).toBe(replacement);
    expect(state.current).toMatchObject({
      origin: 'user',
      supersedes: ids['pool'],
      quarantine: 'none',
      projectKey: KEY,
    });
    expect(state.current?.originTool).toMatch(/^web-ui:/);
    expect(state.forgotten).toBeUndefined();
    expect(state.forgetTrail.at(-1)).toMatchObject({ action: 'forget' });
    expect(String(state.forgetTrail.at(-1)?.detail['actor'])).toMatch(/^web-ui:/);
    expect(state.untrusted?.pinned).toBe(false);
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
  }, 180_000);

  it('renders the audit trail as a table with who did what, folding repeated vector rows', async () => {
    const { t, page, base, ids } = await open('acme-audit');
    await withStore(t.home, async (app) => {
      const values = new Float32Array(8).fill(0.25);
      for (let i = 0; i < 3; i += 1)
        await app.store.setVector(ids['pnpm']!, { model: 'hash', values });
    });
    const trail = await withStore(t.home, (app) => app.store.auditTrail(ids['pnpm']!));
    expect(trail.filter((e) => e.action === 'set-vector')).toHaveLength(3);
    await page.goto(`${base}#/memory/${ids['pnpm']}`);
    await page.waitForSelector('table.audit');
    await page.click('.edit-panel button:has-text("Unpin")');
    await expect.poll(() => page.locator('table.audit tbody tr').count()).toBe(3);
    const rows = await page.locator('table.audit tbody tr').allInnerTexts();
    expect(rows[0]).toMatch(/written/);
    expect(rows[0]).toMatch(/origin\s+user/);
    expect(rows[1]).toContain('vector stored');
    expect(rows[1]).toContain('×3');
    expect(rows[1]).toMatch(/model\s+hash/);
    expect(rows[2]).toMatch(/edited\s+web-ui:\S+/);
    expect(rows[2]).toMatch(/fields\s+pinned/);
    expect(await page.locator('table.audit').innerText()).not.toContain('{"');
    await shot(page, 'memory-audit');
  }, 180_000);

  it('streams new captures into the live feed as they are stored', async () => {
    const { t, dir, page, problems } = await open('acme-live');
    const picker = page.locator('.project-picker select option:checked');
    const before = Number(/\((\d+)\)/.exec(await picker.innerText())?.[1]);
    await page.click('nav[aria-label="Pages"] >> text=Live');
    await expect.poll(() => page.locator('.feed-state').innerText()).toContain('Live');
    const initial = await page.locator('.memory-item').count();
    expect(initial).toBeGreaterThan(0);
    // A capture written by another process (as the hooks do), through the write service.
    const captured = await withStore(t.home, async (app) => {
      const outcome = await writeMemory(writeDepsFrom(app), {
        envelope: { channel: 'tool', toolName: 'WebFetch' },
        content:
          'Fetched https://docs.example/queues:\nQueues retry a job three times before parking it.',
        projectKey: KEY,
        sessionId: 'sess-live',
        sourceUrl: 'https://docs.example/queues',
        workingDir: dir,
      });
      return outcome.decision === 'store' ? outcome.memory.id : '';
    });
    await page.waitForSelector(`.memory-item[data-id="${captured}"]`, { timeout: 15_000 });
    expect(await page.locator('.memory-item').first().getAttribute('data-id')).toBe(captured);
    await expect
      .poll(async () => Number(/\((\d+)\)/.exec(await picker.innerText())?.[1]))
      .toBe(before + 1);
    await shot(page, 'live');
    expect(problems).toEqual([]);
  }, 180_000);

  it('shows a session timeline: what it captured, and what was injected when, on which event, and what was withheld and why', async () => {
    const { t, page, base, ids } = await open('acme-timeline');
    await withStore(t.home, (app) =>
      app.store.recordInjection({
        sessionId: 'sess-7f3a',
        event: 'prompt-recall',
        source: null,
        projectKey: KEY,
        memoryIds: [ids['pnpm']!],
        tokens: 42,
        withheld: [{ id: ids['evil-install']!, reasons: ['origin_not_allowlisted'] }],
      }),
    );
    await page.goto(`${base}#/memory/${ids['fix']}`);
    await page.click('a:has-text("sess-7f3a")');
    await page.waitForSelector('.timeline');
    const summary = await page.locator('.timeline-summary').innerText();
    expect(summary).toMatch(/2 captures · 3 injections · \d+ tokens injected/);
    const items = page.locator('.timeline-item');
    const kinds: string[] = [];
    for (let i = 0; i < (await items.count()); i += 1) {
      kinds.push((await items.nth(i).getAttribute('data-type')) ?? '');
    }
    expect(kinds.filter((k) => k === 'capture')).toHaveLength(2);
    const text = await page.locator('.timeline').innerText();
    expect(text).toContain('Injected at session start');
    expect(text).toContain('(resume)');
    expect(text).toContain('Injected with a prompt (recall)');
    expect(text).toMatch(/1 memory, 42 tokens/);
    expect(text).toContain(`${ids['evil-install']}: its origin is not on the allowlist`);
    expect(
      await page
        .locator(`.timeline-item[data-type="capture"] .memory-item[data-id="${ids['fix']}"]`)
        .count(),
    ).toBe(1);
    await shot(page, 'session-timeline');
  }, 180_000);

  it('never makes "Approve all" the primary button for a source marked hostile, nor shows one group’s list under another’s name', async () => {
    const { t, page, base } = await open('acme-hostile');
    await page.goto(`${base}#/review?by=domain&key=evil-cdn.example`);
    await page.waitForSelector('.bulk .hostile');
    expect(await page.locator('.bulk .hostile').innerText()).toContain(
      'text that reads as instructions to the agent',
    );
    const primary = page.locator('.bulk button.primary');
    expect(await primary.count()).toBe(1);
    expect(await primary.innerText()).toContain('Purge');
    expect(await page.locator('.bulk button:has-text("Approve all")').getAttribute('class')).toBe(
      'quiet',
    );
    await shot(page, 'review-hostile');
    // A plain documentation site is not marked: approving it is the primary choice there. Its list is
    // held back until the page was checked: under the new key, nothing of the hostile group's list,
    // marks or buttons may stand while the new one loads.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/api\/review\?.*key=node-postgres\.com/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${base}#/review?by=domain&key=node-postgres.com`);
    await expect.poll(() => page.locator('.bulk code').innerText()).toBe('node-postgres.com');
    expect(await page.locator('.bulk').innerText()).toContain('…');
    expect(await page.locator('.bulk .hostile').count()).toBe(0);
    expect(await page.locator('.bulk button').count()).toBe(0);
    expect(await page.locator('.memory-item').count()).toBe(0);
    expect(await page.getByText('Loading…').count()).toBe(1);
    release();
    await expect.poll(() => page.locator('.bulk').innerText()).toContain('2 memories');
    expect(await page.locator('.bulk .hostile').count()).toBe(0);
    expect(await page.locator('.bulk button.primary').innerText()).toBe('Approve all');
    expect(
      await withStore(t.home, (app) => app.store.countMemories({ quarantine: ['pending'] })),
    ).toBe(6);
  }, 180_000);
});
