/**
 * Session start and the project page: what the page Claude Code reads (CLAUDE.md's section, or
 * MNEMO.md imported by it) holds verbatim is not repeated; the frame points at the page instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { usePageKit } from '../../test/helpers/page-kit.js';
import { PAGE_FILE_NAME } from '../pages/page-file.js';
import { writeProjectPage } from '../pages/project-page.js';
import type { SessionStartInput } from './hook-input.js';
import { handleSessionStart } from './session-start.js';

const kit = usePageKit();

function start(cwd: string, session: string): SessionStartInput {
  return { session_id: session, cwd, hook_event_name: 'SessionStart', source: 'startup' };
}

function contextOf(stdout: string | undefined): string {
  if (stdout === undefined) return '';
  return (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } })
    .hookSpecificOutput.additionalContext;
}

describe('handleSessionStart with a project page', () => {
  it('points at the page in CLAUDE.md instead of repeating what it holds verbatim', async () => {
    const k = await kit({ file: 'CLAUDE.md' });
    const onPage = await k.remember('Use pnpm, not npm.');
    const edited = await k.remember('Run the linter before committing.');
    await writeProjectPage(k.app, k.target, { force: false });
    writeFileSync(
      k.target.path,
      readFileSync(k.target.path, 'utf8').replace('before committing', 'before every commit'),
    );
    const later = await k.remember('Squash merge pull requests.');

    const context = contextOf((await handleSessionStart(start(k.dir, 's1'), k.app)).stdout);
    expect(context).toContain(
      'Context: session start; 1 more memory of this project is on its page in CLAUDE.md, not repeated here',
    );
    expect(context).not.toContain(onPage.id);
    expect(context).toContain(`id=${edited.id}`);
    expect(context).toContain(`id=${later.id}`);
    const [ledger] = await k.app.store.listInjections({ sessionId: 's1', limit: 5 });
    expect(ledger?.memoryIds.sort()).toEqual([edited.id, later.id].sort());
  });

  it('repeats the entries of MNEMO.md until CLAUDE.md imports it, then points at it', async () => {
    const k = await kit();
    const memory = await k.remember('Use pnpm, not npm.');
    await writeProjectPage(k.app, k.target, { force: false });
    expect(contextOf((await handleSessionStart(start(k.dir, 's1'), k.app)).stdout)).toContain(
      `id=${memory.id}`,
    );

    writeFileSync(join(k.dir, 'CLAUDE.md'), `# Rules\n\n@${PAGE_FILE_NAME}\n`);
    const result = await handleSessionStart(start(k.dir, 's2'), k.app);
    // Everything is on the page Claude Code reads, so nothing is injected at all.
    expect(result).toEqual({});
  });

  it('ignores a damaged page and injects as usual', async () => {
    const k = await kit({ file: 'CLAUDE.md' });
    const memory = await k.remember('Use pnpm, not npm.');
    await writeProjectPage(k.app, k.target, { force: false });
    writeFileSync(
      k.target.path,
      readFileSync(k.target.path, 'utf8').replace('### Decisions', '### Todo'),
    );
    const context = contextOf((await handleSessionStart(start(k.dir, 's1'), k.app)).stdout);
    expect(context).toContain(`id=${memory.id}`);
    expect(context).toContain('Context: session start\n');
  });
});
