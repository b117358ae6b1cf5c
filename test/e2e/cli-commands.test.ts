import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { idFrom, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();

interface JsonMemory {
  id: string;
  content: string;
  kind: string;
  visibility: string;
  projectKey: string;
  tags: string[];
  origin: string;
  originTool: string | null;
}

describe('mnemo (built binary)', () => {
  it('prints usage for --help and the version for --version without creating a store', async () => {
    const t = newHome();
    const help = await t.run(['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'remember',
      'recall',
      'get',
      'forget',
      'list',
      'stats',
      'export',
      'import',
      'demo',
    ]) {
      expect(help.stdout).toContain(command);
    }
    const version = await t.run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(existsSync(t.home)).toBe(false);
  });

  it('remembers with tags, kind and origin user/cli, and prints the id', async () => {
    const t = newHome();
    const result = await t.run([
      'remember',
      'Use',
      'pnpm',
      'not',
      'npm',
      '--tag',
      'Build',
      '-t',
      'ci',
      '--kind',
      'decision',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Remembered [0-9A-Z]{26}\n$/);
    const got = await t.run(['get', idFrom(result.stdout), '--json']);
    const memory = JSON.parse(got.stdout) as JsonMemory;
    expect(memory).toMatchObject({
      content: 'Use pnpm not npm',
      kind: 'decision',
      tags: ['build', 'ci'],
      visibility: 'project',
      projectKey: t.project,
      origin: 'user',
      originTool: 'cli',
    });
  });

  it('says "already remembered" for the same text and keeps one memory', async () => {
    const t = newHome();
    const first = await t.run(['remember', 'the cache lives in /var/cache/app']);
    const second = await t.run(['remember', 'the   cache lives in /var/cache/app']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`Already remembered as ${idFrom(first.stdout)}\n`);
    const list = JSON.parse((await t.run(['list', '--json'])).stdout) as { total: number };
    expect(list.total).toBe(1);
  });

  it('reads the text from stdin with `remember -`, keeping UTF-8 intact', async () => {
    const t = newHome();
    const result = await t.run(['remember', '-'], { input: 'Größe: 🚀 multi\nline\n' });
    expect(result.code).toBe(0);
    const got = JSON.parse(
      (await t.run(['get', idFrom(result.stdout), '--json'])).stdout,
    ) as JsonMemory;
    expect(got.content).toBe('Größe: 🚀 multi\nline');
  });

  it('keys memories by the git root, so a subdirectory and --project agree', async () => {
    const t = newHome();
    const repo = join(t.project, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const written = await t.run(['remember', 'repo-wide fact about widgets'], {
      cwd: join(repo, 'src'),
    });
    const got = JSON.parse(
      (await t.run(['get', idFrom(written.stdout), '--json'])).stdout,
    ) as JsonMemory;
    expect(got.projectKey).toBe(repo);
    const recalled = await t.run(['recall', 'widgets', '--project', repo, '--json']);
    expect((JSON.parse(recalled.stdout) as { hits: unknown[] }).hits).toHaveLength(1);
  });

  it('recalls project and global memories but not another project', async () => {
    const t = newHome();
    const other = join(t.project, 'other');
    mkdirSync(other);
    await t.run(['remember', 'postgres runs on port 5433 here']);
    await t.run(['remember', 'postgres password rotates monthly', '--project', other]);
    await t.run([
      'remember',
      'postgres upgrades need a maintenance window',
      '--global',
      '--kind',
      'preference',
    ]);
    const human = await t.run(['recall', 'postgres']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('postgres runs on port 5433 here');
    expect(human.stdout).toContain('postgres upgrades need a maintenance window');
    expect(human.stdout).toContain('global');
    expect(human.stdout).not.toContain('password');
    const json = JSON.parse(
      (await t.run(['recall', 'postgres', '--json', '--limit', '1'])).stdout,
    ) as {
      query: string;
      scope: { projectKey: string; includeGlobal: boolean };
      hits: { memory: JsonMemory; score: number; ranks: { lexical: number } }[];
    };
    expect(json.query).toBe('postgres');
    expect(json.scope).toEqual({ projectKey: t.project, includeGlobal: true });
    expect(json.hits).toHaveLength(1);
    // Both in-scope memories score alike on the word (same length, one occurrence): the lexical leg
    // found the hit, and the sentence model decides between the two.
    expect(json.hits[0]?.ranks.lexical).toBeGreaterThanOrEqual(1);
    expect(json.hits[0]?.memory.content).toMatch(/^postgres (runs on port|upgrades need)/);
  });

  it('says so when nothing matches and still exits 0', async () => {
    const t = newHome();
    const result = await t.run(['recall', 'nothing', 'here']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^No memories match "nothing here"/);
  });

  it('shows the full record with get, origin and supersede links included', async () => {
    const t = newHome();
    const id = idFrom(
      (await t.run(['remember', 'deploys happen on Tuesdays', '-t', 'ops'])).stdout,
    );
    const result = await t.run(['get', id.toLowerCase()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`id:            ${id}`);
    expect(result.stdout).toMatch(/origin: +user \(cli\)/);
    expect(result.stdout).toMatch(/tags: +ops/);
    expect(result.stdout).toMatch(/supersedes: +-/);
    expect(result.stdout).toMatch(/superseded by: +-/);
    expect(result.stdout.trimEnd().endsWith('deploys happen on Tuesdays')).toBe(true);
  });

  it('forgets a memory so that get no longer finds it', async () => {
    const t = newHome();
    const id = idFrom((await t.run(['remember', 'temporary note'])).stdout);
    expect(await t.run(['forget', id])).toMatchObject({ code: 0, stdout: `Forgot ${id}\n` });
    const after = await t.run(['get', id]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(`No memory with id ${id}`);
  });

  it('lists the project with global memories, every project with --all, and honours --limit', async () => {
    const t = newHome();
    const other = join(t.project, 'other');
    mkdirSync(other);
    await t.run(['remember', 'first here']);
    await t.run(['remember', 'second here']);
    await t.run(['remember', 'elsewhere', '--project', other]);
    const here = await t.run(['list']);
    expect(here.stdout).toContain('first here');
    expect(here.stdout).not.toContain('elsewhere');
    expect(here.stdout).toContain(`Showing 2 of 2 (${t.project} and global)`);
    const all = JSON.parse((await t.run(['list', '--all', '--json'])).stdout) as { total: number };
    expect(all.total).toBe(3);
    const limited = JSON.parse((await t.run(['list', '--limit', '1', '--json'])).stdout) as {
      total: number;
      memories: JsonMemory[];
    };
    expect(limited.total).toBe(2);
    expect(limited.memories.map((m) => m.content)).toEqual(['second here']);
    const conflict = await t.run(['list', '--all', '--project', other]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/cannot be used with/);
  });

  it('reports stats in text and JSON', async () => {
    const t = newHome();
    await t.run(['remember', 'a decision', '--kind', 'decision']);
    await t.run(['remember', 'a global note', '--global']);
    const text = await t.run(['stats']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`store:       ${t.dbPath}`);
    expect(text.stdout).toMatch(/memories: +2 \(0 superseded\)/);
    const json = JSON.parse((await t.run(['stats', '--json'])).stdout) as {
      path: string;
      memories: number;
      byKind: Record<string, number>;
    };
    expect(json).toMatchObject({ path: t.dbPath, memories: 2, byKind: { decision: 1, note: 1 } });
  });

  it('exports JSON Lines to stdout and atomically to --out', async () => {
    const t = newHome();
    await t.run(['remember', 'one']);
    await t.run(['remember', 'two', '--global']);
    const stdout = await t.run(['export']);
    expect(stdout.code).toBe(0);
    const lines = stdout.stdout.trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as JsonMemory).content)).toEqual(['one', 'two']);
    const out = join(t.project, 'backup.jsonl');
    const toFile = await t.run(['export', '--out', 'backup.jsonl']);
    expect(toFile).toMatchObject({ code: 0, stdout: '' });
    expect(toFile.stderr).toBe(`Exported 2 memories to ${out}\n`);
    expect(readFileSync(out, 'utf8')).toBe(stdout.stdout);
  });

  it('imports an export with a per-line report and skips ids already present', async () => {
    const source = newHome();
    await source.run(['remember', 'alpha fact']);
    await source.run(['remember', 'beta fact']);
    await source.run(['export', '--out', 'dump.jsonl']);
    const file = join(source.project, 'dump.jsonl');
    const target = newHome();
    const first = await target.run(['import', file]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^line 1 {2}[0-9A-Z]{26} {2}imported\nline 2 .* imported\nImported 2, skipped 0/,
    );
    const again = await target.run(['import', '-'], { input: readFileSync(file) });
    expect(again.stdout).toContain('Imported 0, skipped 2 from stdin.');
  });

  it('writes logs to $MNEMO_HOME/logs and never to stdout; --verbose mirrors them on stderr', async () => {
    const t = newHome();
    const quiet = await t.run(['remember', 'logged fact']);
    expect(quiet.stdout).toMatch(/^Remembered [0-9A-Z]{26}\n$/);
    expect(readFileSync(join(t.home, 'logs', 'mnemo.log'), 'utf8')).toContain('"msg":"remembered"');
    const verbose = await t.run(['--verbose', 'list']);
    expect(verbose.stderr).toContain('[debug] store opened');
    expect(verbose.stdout).not.toContain('[debug]');
  });

  it('runs the demo in a scratch home, leaves $MNEMO_HOME alone and recalls results', async () => {
    const t = newHome();
    // TMPDIR inside the test's own directory, so the scratch home is cleaned up with it.
    const result = await t.run(['demo'], { env: { TMPDIR: t.project } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `mnemo demo: a scratch store in ${join(t.project, 'mnemo-demo-')}`,
    );
    expect(result.stdout).toContain('8 new memories.');
    expect(result.stdout).toMatch(
      /recall "postgres" in webshop.*\n {2}1\. \[error, webshop\] `ECONNREFUSED/,
    );
    expect(result.stdout).toMatch(
      /recall "commit message style" in webshop.*\n {2}1\. \[preference, global\]/,
    );
    expect(existsSync(t.home)).toBe(false);
  });

  it('dedupes when the demo runs twice on the same --home', async () => {
    const t = newHome();
    const home = join(t.project, 'demo-home');
    await t.run(['demo', '--home', home]);
    const again = await t.run(['demo', '--home', home]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 new memories, 8 already there (deduplicated).');
    expect(again.stdout).not.toContain('Delete');
  });
});
