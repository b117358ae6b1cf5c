/**
 * `mnemo pages` as it ships: the built binary writes the page of a real git repository, a person edits
 * it, `pages read` shows the plan and applies nothing without `--apply` (no terminal here), `--apply`
 * turns the edits into memories and rewrites the page, `--into CLAUDE.md` keeps the rest of the file,
 * and the session-start hook then points at the page instead of repeating it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useGitRepos } from '../helpers/git-repo.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { everything, withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const repos = useGitRepos();

function project(): { t: TestHome; dir: string; run: TestHome['run'] } {
  const t = newHome();
  const repo = repos('app');
  repo.write('README.md', '# app\n');
  repo.commit('initial');
  return {
    t,
    dir: repo.dir,
    run: (args, options = {}) => t.run(args, { cwd: repo.dir, ...options }),
  };
}

describe('mnemo pages (built binary)', () => {
  it('writes, reads back edits as a plan, applies them only when asked, and is byte-stable', async () => {
    const { t, dir, run } = project();
    for (const args of [
      ['remember', '-k', 'decision', 'Use pnpm, not npm, for every script.'],
      ['remember', 'Tests live beside the code.'],
      ['remember', '-k', 'fix', 'Restart the dev server after changing vite.config.ts.'],
    ]) {
      expect((await run(args)).code).toBe(0);
    }
    const written = await run(['pages', 'write']);
    expect(written).toMatchObject({ code: 0 });
    expect(written.stdout).toContain('Wrote MNEMO.md (3 entries');
    expect(written.stdout).toContain('add a line `@MNEMO.md` to CLAUDE.md');
    const path = join(dir, 'MNEMO.md');
    const first = readFileSync(path);
    expect((await run(['pages', 'write'])).stdout).toContain('MNEMO.md is up to date');
    expect(readFileSync(path).equals(first)).toBe(true);
    expect((await run(['pages', 'write', '--check'])).code).toBe(0);

    const edited = readFileSync(path, 'utf8')
      .replace('- Use pnpm, not npm, for every script.', '- Use pnpm 9, not npm, for every script.')
      .replace('### Preferences\n\n_None yet._', '### Preferences\n\n- Prefer small pull requests.')
      .replace(/- Restart the dev server[^\n]*\n[^\n]*\n/u, '');
    writeFileSync(path, edited);
    const check = await run(['pages', 'write', '--check']);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('holds 3 edits not read back yet');
    expect((await run(['pages', 'write'])).code).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(edited);

    const before = await withStore(t.home, everything);
    const plan = await run(['pages', 'read']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('MNEMO.md: 3 changes from edits of the page (1 entry unchanged)');
    expect(plan.stdout).toMatch(
      /~ change [0-9A-Z]{26}, decision \(line 8\)[^\n]*\n {4}was:\n {6}Use pnpm, not npm, for every script\.\n {4}now:\n {6}Use pnpm 9, not npm, for every script\./u,
    );
    expect(plan.stdout).toContain('+ add a preference (line 18)\n    Prefer small pull requests.');
    expect(plan.stdout).toMatch(
      /- forget [0-9A-Z]{26}, fix \(its entry was deleted\)\n {4}Restart the dev server/u,
    );
    expect(plan.stdout).toContain(
      'Nothing applied. Run `mnemo pages read --apply` to apply these 3 changes.',
    );
    expect((await withStore(t.home, everything)).rows).toEqual(before.rows);

    const applied = await run(['pages', 'read', '--apply']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(
      /Replaced [0-9A-Z]{26} with [0-9A-Z]{26}\nRemembered [0-9A-Z]{26}\nForgot [0-9A-Z]{26}\nRewrote MNEMO\.md \(3 entries\)\./u,
    );
    const after = await withStore(t.home, everything);
    expect(
      after.rows
        .filter((r) => r.supersededBy === null)
        .map((r) => [r.kind, r.origin, r.content])
        .sort(),
    ).toEqual([
      ['decision', 'user', 'Use pnpm 9, not npm, for every script.'],
      ['note', 'user', 'Tests live beside the code.'],
      ['preference', 'user', 'Prefer small pull requests.'],
    ]);
    expect((await run(['pages', 'read'])).stdout).toBe(
      'MNEMO.md matches the store (3 entries); nothing to apply.\n',
    );
    const json = JSON.parse((await run(['pages', 'write', '--check', '--json'])).stdout) as {
      current: boolean;
      entries: unknown[];
    };
    expect(json).toMatchObject({ current: true });
    expect(json.entries).toHaveLength(3);
  });

  it('keeps CLAUDE.md outside its markers byte for byte, and session start then points at the page', async () => {
    const { dir, run } = project();
    const claude = join(dir, 'CLAUDE.md');
    const mine =
      '# Rules\n\nRun `make check` before pushing.\n\n<!-- mnemo:page:begin -->\n<!-- mnemo:page:end -->\n\n## Hand-written\n\nkeep   this\n';
    writeFileSync(claude, mine);
    expect((await run(['remember', '-k', 'decision', 'Use pnpm, not npm.'])).code).toBe(0);
    expect((await run(['pages', 'write', '--into', 'CLAUDE.md'])).code).toBe(0);
    const text = readFileSync(claude, 'utf8');
    expect(
      text.startsWith('# Rules\n\nRun `make check` before pushing.\n\n<!-- mnemo:page:begin v1'),
    ).toBe(true);
    expect(text.endsWith('<!-- mnemo:page:end -->\n\n## Hand-written\n\nkeep   this\n')).toBe(true);
    // Found without --into from now on: CLAUDE.md holds the page.
    expect((await run(['pages', 'read'])).stdout).toBe(
      'CLAUDE.md matches the store (1 entry); nothing to apply.\n',
    );

    const hook = await run(['hook', 'session-start'], {
      input: JSON.stringify({
        session_id: 's1',
        cwd: dir,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    });
    expect(hook).toMatchObject({ code: 0, stdout: '' });
    expect((await run(['remember', '-k', 'decision', 'Squash merge pull requests.'])).code).toBe(0);
    const second = await run(['hook', 'session-start'], {
      input: JSON.stringify({
        session_id: 's2',
        cwd: dir,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    });
    const context = (
      JSON.parse(second.stdout) as { hookSpecificOutput: { additionalContext: string } }
    ).hookSpecificOutput.additionalContext;
    expect(context).toContain(
      '1 more memory of this project is on its page in CLAUDE.md, not repeated here',
    );
    expect(context).toContain('> Squash merge pull requests.');
    expect(context).not.toContain('Use pnpm');
  });

  it('refuses a malformed page with the line and what to do, and changes nothing', async () => {
    const { t, dir, run } = project();
    expect((await run(['remember', '-k', 'decision', 'Use pnpm, not npm.'])).code).toBe(0);
    expect((await run(['pages', 'write'])).code).toBe(0);
    const path = join(dir, 'MNEMO.md');
    const broken = readFileSync(path, 'utf8')
      .replace('### Decisions', '### Decisionz')
      .replace('- Use pnpm', '- Use yarn');
    writeFileSync(path, broken);
    const before = await withStore(t.home, everything);
    const read = await run(['pages', 'read', '--apply']);
    expect(read.code).toBe(1);
    expect(read.stderr).toBe(
      'mnemo: Project page, line 6: unknown section "Decisionz". The page has these sections: Decisions, Conventions, Preferences, Known fixes, Last checkpoint. Nothing was changed.\n',
    );
    expect(readFileSync(path, 'utf8')).toBe(broken);
    expect((await withStore(t.home, everything)).rows).toEqual(before.rows);
    const unpaired = await run(['pages', 'write', '--into', 'CLAUDE.md'], {});
    expect(unpaired.code).toBe(0);
    writeFileSync(
      join(dir, 'CLAUDE.md'),
      `${readFileSync(join(dir, 'CLAUDE.md'), 'utf8')}<!-- mnemo:page:end -->\n`,
    );
    const twice = await run(['pages', 'read', '--from', 'CLAUDE.md']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('do not pair up');
  });
});
