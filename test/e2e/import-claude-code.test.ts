/**
 * `mnemo import claude-code` through the built binary, over a synthetic transcript tree
 * (test/fixtures/transcripts): two live projects and one whose directory is gone; Edit/Write, a command
 * that fails then passes, a hostile WebFetch, a secret in a failing command's output, an interrupted
 * call, reads, an undeclared MCP tool, mnemo's own tool, a sub-agent file, harness lines and malformed
 * lines.
 */
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openRawSqlite } from '../fixtures/sqlite/raw-sqlite.js';
import { exportRows, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import {
  copyTranscriptTree,
  FIXTURE_SECRET,
  TRANSCRIPT_SESSIONS,
  type TranscriptTree,
  treeSnapshot,
} from '../helpers/transcript-fixtures.js';

const newHome = useTestHomes();
const tempDir = useTempDirs();

interface Row {
  projectKey: string;
  kind: string;
  origin: string;
  quarantine: string;
  originTool: string | null;
  sessionId: string | null;
  content: string;
  accessCount: number;
  redactions: number;
  sourceUrl: string | null;
  createdAt: string;
}

async function importTree(t: TestHome, tree: TranscriptTree, ...args: string[]) {
  const result = await t.run(['import', 'claude-code', '--path', tree.projects, ...args]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  return result.stdout;
}

async function rows(t: TestHome): Promise<Row[]> {
  return (await exportRows(t))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Row);
}

/** What an import stored, independent of ids and times: the comparison across homes. */
function essence(list: readonly Row[]): string[] {
  return list
    .map((r) =>
      JSON.stringify([r.projectKey, r.kind, r.origin, r.quarantine, r.originTool, r.content]),
    )
    .sort();
}

function setup(): { t: TestHome; tree: TranscriptTree } {
  return { t: newHome(), tree: copyTranscriptTree(tempDir()) };
}

describe('mnemo import claude-code (built binary)', () => {
  it('stores the expected memories per project, each with the origin of its channel', async () => {
    const { t, tree } = setup();
    await importTree(t, tree);
    const stored = (await rows(t))
      .map((r) => [
        r.projectKey,
        r.kind,
        r.origin,
        r.quarantine,
        r.originTool,
        r.content.split('\n')[0],
      ])
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const { acmeFix, acmeHostile, shop } = TRANSCRIPT_SESSIONS;
    expect(stored).toEqual(
      [
        [
          tree.acme,
          'capture',
          'local_edit',
          'none',
          'Edit',
          'Edited src/db/orders.sql.ts: - SELECT id, total FROM orders / + SELECT id, total, status FROM orders (1→1 lines)',
        ],
        [
          tree.acme,
          'capture',
          'local_edit',
          'none',
          'Write',
          "Edited test/orders-status.test.ts: wrote 6 lines; first: import { listOrders } from '../src/routes/orders';",
        ],
        [
          tree.acme,
          'capture',
          'network',
          'pending',
          'WebFetch',
          'Fetched https://evil.example/pg-errors:',
        ],
        [
          tree.acme,
          'error',
          'local_exec',
          'none',
          'Bash',
          'Command failed: npm run deploy:staging',
        ],
        [
          tree.acme,
          'error',
          'local_exec',
          'none',
          'Bash',
          'Command failed: npm test -- --grep orders',
        ],
        [
          tree.acme,
          'fix',
          'local_exec',
          'none',
          'Bash',
          'fixed: npm test -- --grep orders now passes',
        ],
        [
          tree.shop,
          'capture',
          'local_edit',
          'none',
          'Edit',
          'Edited src/checkout/gift-card.tsx: - <input type="number" /> / + <input type="number" aria-label="Gift card amount" /> (1→1 lines)',
        ],
        [
          tree.shop,
          'capture',
          'local_edit',
          'none',
          'Write',
          'Edited src/cart/quantity-stepper.tsx: wrote 4 lines; first: export function QuantityStepper({ value, onChange }: Props) {',
        ],
        [
          tree.shop,
          'capture',
          'local_edit',
          'none',
          'Edit',
          'Edited src/cart/cart.css: - .cart-row { display: flex; } / + .cart-row { display: flex; gap: 8px; } (1→1 lines)',
        ],
        [
          tree.shop,
          'capture',
          'local_edit',
          'none',
          'Edit',
          "Edited src/cart/cart.tsx: - import { CartRow } from './cart-row'; / + import { CartRow } from './cart-row'; (1→2 lines)",
        ],
        [
          tree.shop,
          'capture',
          'network',
          'pending',
          'WebSearch',
          'Searched the web for "WAI-ARIA spinbutton quantity stepper":',
        ],
      ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
    const sessions = new Set((await rows(t)).map((r) => r.sessionId));
    expect(sessions).toEqual(new Set([acmeFix, acmeHostile, shop]));
  });

  it('keeps per memory the tool, the page a fetch read and the transcript time; --mend restores them on old rows', async () => {
    const { t, tree } = setup();
    await importTree(t, tree);
    const stamp = (list: readonly Row[]) =>
      list
        .map(
          (r) => `${r.originTool} ${r.sourceUrl ?? '-'} ${r.createdAt} ${r.content.slice(0, 24)}`,
        )
        .sort();
    const fresh = stamp(await rows(t));
    expect(fresh).toEqual([
      'Bash - 2026-08-20T09:15:16.000Z Command failed: npm test',
      'Bash - 2026-08-20T09:17:06.000Z fixed: npm test -- --gre',
      'Bash - 2026-08-21T10:02:30.000Z Command failed: npm run ',
      'Edit - 2026-08-20T09:15:01.000Z Edited src/db/orders.sql',
      'Edit - 2026-08-22T14:00:08.000Z Edited src/cart/cart.css',
      'Edit - 2026-08-22T14:00:08.000Z Edited src/cart/cart.tsx',
      'Edit - 2026-08-22T14:04:10.000Z Edited src/checkout/gift',
      'WebFetch https://evil.example/pg-errors 2026-08-21T10:00:09.000Z Fetched https://evil.exa',
      'WebSearch - 2026-08-22T14:02:03.000Z Searched the web for "WA',
      'Write - 2026-08-20T09:18:21.000Z Edited test/orders-statu',
      'Write - 2026-08-22T14:00:06.000Z Edited src/cart/quantity',
    ]);
    // Rows as an import before this fix stored them: no source, dated at the import.
    const db = openRawSqlite(t.dbPath);
    db.prepare(
      "UPDATE memories SET source_url = NULL, source_host = NULL, created_at = '2026-12-01T00:00:00.000Z', updated_at = '2026-12-01T00:00:00.000Z'",
    ).run();
    db.close();
    expect((await rows(t)).every((r) => r.sourceUrl === null)).toBe(true);
    const mended = await importTree(t, tree, '--mend');
    expect(mended).toContain(
      'mended:   11 memories given their source, tool or time; 0 already complete; 0 with no stored memory (left alone)',
    );
    expect(stamp(await rows(t))).toEqual(fresh);
    const refused = await t.run([
      'import',
      'claude-code',
      '--path',
      tree.projects,
      '--mend',
      '--dry-run',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('run it without --dry-run and --limit');
  });

  it('stores no typed prompt, no assistant prose and nothing from the hostile page as trusted', async () => {
    const { t, tree } = setup();
    await importTree(t, tree);
    const all = await rows(t);
    expect(all.some((r) => /Why does GET|regression test for|Let me look/.test(r.content))).toBe(
      false,
    );
    const hostile = all.filter((r) => r.content.includes('evil.example'));
    expect(hostile.map((r) => [r.origin, r.quarantine])).toEqual([['network', 'pending']]);
  });

  it('redacts the secret in a failing command output, in the memory and in the database file', async () => {
    const { t, tree } = setup();
    await importTree(t, tree);
    const deploy = (await rows(t)).find((r) => r.content.includes('deploy:staging'));
    expect(deploy?.content).toBe(
      'Command failed: npm run deploy:staging\nExit code 1\n' +
        'Deploy failed: registry refused the token [REDACTED:github_token] (401 Unauthorized)',
    );
    expect(deploy?.redactions).toBe(1);
    for (const file of [t.dbPath, `${t.dbPath}-wal`, join(t.home, 'import', 'claude-code.json')]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      expect(bytes.includes(FIXTURE_SECRET)).toBe(false);
    }
  });

  it('prints a summary of files, lines, outcomes and skips by reason', async () => {
    const { t, tree } = setup();
    const stdout = await importTree(t, tree);
    expect(stdout).toBe(
      [
        `Claude Code transcripts in ${tree.projects}`,
        '  files:    5 found, 5 read',
        '  lines:    59 read, 3 malformed (skipped)',
        '  tool calls with a result: 20',
        '  stored:   11 new memories, 0 merged into existing ones',
        '  skipped:  10 (below_length_floor 1, interrupted 1, no_prior_failure 1, no_project 1, own_tool 1, read_not_captured 3, undeclared_mcp 1, unpaired 1)',
        '  not captured (no memory channel): 5 user prompts, 2 assistant text blocks, 7 harness messages',
        `  project ${tree.acme}: 6`,
        `  project ${tree.shop}: 5`,
        '',
      ].join('\n'),
    );
  });

  it('adds nothing on a second import: the full export is byte for byte the same', async () => {
    const { t, tree } = setup();
    await importTree(t, tree);
    const before = await exportRows(t);
    const second = await importTree(t, tree);
    expect(second).toContain('5 found, 0 read, 5 unchanged since the last import');
    expect(await exportRows(t)).toBe(before);
  });

  it('resumes an interrupted import where it stopped, without duplicates or repeated writes', async () => {
    const { t, tree } = setup();
    let runs = 0;
    for (;;) {
      runs += 1;
      const stdout = await importTree(t, tree, '--limit', '7');
      if (!stdout.includes('Stopped at --limit')) break;
      expect(runs).toBeLessThan(20);
    }
    expect(runs).toBe(9);
    const resumed = await rows(t);
    const once = newHome();
    await importTree(once, copyTranscriptTree(tempDir()));
    const reference = await rows(once);
    // The reference tree lives elsewhere: compare with project keys mapped onto this tree.
    const mapped = reference.map((r) => ({
      ...r,
      projectKey: r.projectKey.endsWith('acme-api') ? tree.acme : tree.shop,
      content: r.content,
    }));
    expect(essence(resumed)).toEqual(essence(mapped));
    // No pair was offered twice: no memory saw a merge.
    expect(resumed.every((r) => r.accessCount === 0)).toBe(true);
  });

  it('lets the store dedupe everything again when the resume state is lost', async () => {
    const { t, tree } = setup();
    await importTree(t, tree);
    const before = await rows(t);
    rmSync(join(t.home, 'import'), { recursive: true });
    const again = await importTree(t, tree);
    // Re-offered captures merge; the repeated test pass is no second fix (as live), so 10 merge.
    expect(again).toContain('stored:   0 new memories, 10 merged into existing ones');
    expect(essence(await rows(t))).toEqual(essence(before));
  });

  it('reads only what was appended to a transcript since the last import', async () => {
    const { t, tree } = setup();
    await importTree(t, tree);
    const file = tree.transcript('acmeFix');
    const common = {
      sessionId: TRANSCRIPT_SESSIONS.acmeFix,
      cwd: tree.acme,
      timestamp: '2026-08-20T10:00:00.000Z',
    };
    const use = {
      type: 'tool_use',
      id: 'toolu_NEW',
      name: 'Edit',
      input: {
        file_path: join(tree.acme, 'src/new.ts'),
        old_string: 'const a = 1;',
        new_string: 'const a = 2; // appended',
      },
    };
    appendFileSync(
      file,
      `${JSON.stringify({ ...common, type: 'assistant', message: { role: 'assistant', content: [use] } })}\n` +
        `${JSON.stringify({ ...common, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_NEW', content: 'ok' }] } })}\n`,
    );
    const stdout = await importTree(t, tree);
    expect(stdout).toContain('5 found, 1 read, 4 unchanged since the last import');
    expect(stdout).toContain('lines:    2 read');
    expect(stdout).toContain('stored:   1 new memory, 0 merged');
    expect((await rows(t)).filter((r) => r.content.startsWith('Edited src/new.ts'))).toHaveLength(
      1,
    );
  });

  it('never writes into the transcript directory', async () => {
    const { t, tree } = setup();
    const before = treeSnapshot(tree.projects);
    await importTree(t, tree);
    await importTree(t, tree, '--limit', '3', '--since', '2026-01-01');
    expect(treeSnapshot(tree.projects)).toEqual(before);
  });

  it('--project puts every capture in that project, including the one whose directory is gone', async () => {
    const { t, tree } = setup();
    await importTree(t, tree, '--project', tree.shop);
    const all = await rows(t);
    expect(new Set(all.map((r) => r.projectKey))).toEqual(new Set([tree.shop]));
    expect(all.some((r) => r.content.startsWith('Edited src/config.ts'))).toBe(true);
  });

  it('--since skips tool calls answered before the date', async () => {
    const { t, tree } = setup();
    const stdout = await importTree(t, tree, '--since', '2026-08-22');
    expect(stdout).toContain('stored:   5 new memories');
    expect(new Set((await rows(t)).map((r) => r.projectKey))).toEqual(new Set([tree.shop]));
  });

  it('--since takes yesterday or an age: transcripts from months ago store nothing', async () => {
    const { t, tree } = setup();
    for (const since of ['yesterday', '2w']) {
      expect(await importTree(t, tree, '--since', since)).toContain('stored:   0 new memories');
    }
    expect(await rows(t)).toEqual([]);
  });

  it('--dry-run classifies everything and writes nothing, not even the resume state', async () => {
    const { t, tree } = setup();
    const stdout = await importTree(t, tree, '--dry-run');
    expect(stdout).toContain('(dry run: nothing written)');
    expect(stdout).toContain('would offer to the write gate: 11');
    expect(await rows(t)).toEqual([]);
    expect(await importTree(t, tree)).toContain('stored:   11 new memories');
  });

  it('refuses a transcripts directory that does not exist, with exit 1 and what to pass', async () => {
    const t = newHome();
    const result = await t.run(['import', 'claude-code', '--path', join(t.project, 'nope')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /No Claude Code transcripts directory at .*nope.*Pass --path <dir>/,
    );
    const since = await t.run([
      'import',
      'claude-code',
      '--path',
      t.project,
      '--since',
      'last tuesday',
    ]);
    expect(since.code).toBe(1);
    expect(since.stderr).toContain(
      '--since "last tuesday" is not a date. Give an ISO date such as 2026-08-01',
    );
  });

  it('reads ~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects, when no --path is given', async () => {
    const t = newHome();
    copyTranscriptTree(tempDir(), join(t.userHome, '.claude', 'projects'));
    const viaHome = await t.run(['import', 'claude-code', '--dry-run']);
    expect(viaHome.stdout).toContain('would offer to the write gate: 11');
    const configDir = join(tempDir(), 'claude-config');
    copyTranscriptTree(tempDir(), join(configDir, 'projects'));
    const viaConfig = await t.run(['import', 'claude-code', '--dry-run'], {
      env: { CLAUDE_CONFIG_DIR: configDir },
    });
    expect(viaConfig.stdout).toContain(`Claude Code transcripts in ${join(configDir, 'projects')}`);
  });
});
