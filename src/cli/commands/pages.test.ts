/**
 * `mnemo pages read` at a terminal: it asks before applying, and only a yes applies. The streams are
 * real ones marked as terminals, as a TTY would be; the project is a real git repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { useGitRepos } from '../../../test/helpers/git-repo.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';
import { everything, withStore } from '../../../test/helpers/test-app.js';
import type { CliIo } from '../cli-io.js';
import { EXIT_OK, runCli } from '../run-cli.js';

const tempDir = useTempDirs();
const repos = useGitRepos();

function terminal(env: NodeJS.ProcessEnv, cwd: string, typed: string, tty = true) {
  const out = Object.assign(new PassThrough({ encoding: 'utf8' }), { isTTY: tty });
  const stdin = Object.assign(Readable.from([Buffer.from(typed)]), { isTTY: tty });
  let stdout = '';
  out.on('data', (chunk: string) => (stdout += chunk));
  const io: CliIo = { stdin, stdout: out, stderr: new PassThrough(), env, cwd };
  return { io, stdout: () => stdout };
}

async function editedProject() {
  const repo = repos('app');
  repo.write('README.md', '# app\n');
  repo.commit('initial');
  const env = { MNEMO_HOME: join(tempDir(), 'home'), HOME: tempDir() };
  expect(
    await runCli(['remember', '-k', 'decision', 'Use pnpm.'], terminal(env, repo.dir, '').io),
  ).toBe(EXIT_OK);
  expect(await runCli(['pages', 'write'], terminal(env, repo.dir, '').io)).toBe(EXIT_OK);
  const path = join(repo.dir, 'MNEMO.md');
  writeFileSync(path, readFileSync(path, 'utf8').replace('- Use pnpm.', '- Use pnpm 9.'));
  return { env, dir: repo.dir };
}

describe('mnemo pages read at a terminal', () => {
  it('applies the plan after a yes', async () => {
    const { env, dir } = await editedProject();
    const t = terminal(env, dir, 'y\n');
    expect(await runCli(['pages', 'read'], t.io)).toBe(EXIT_OK);
    expect(t.stdout()).toMatch(
      /Apply this change\? \[y\/N\] Replaced [0-9A-Z]{26} with [0-9A-Z]{26}\nRewrote MNEMO\.md/u,
    );
    const rows = await withStore(env.MNEMO_HOME, everything);
    expect(rows.rows.find((r) => r.supersededBy === null)?.content).toBe('Use pnpm 9.');
  });

  it('applies nothing after any other answer, or when stdin is not a terminal', async () => {
    const { env, dir } = await editedProject();
    const before = await withStore(env.MNEMO_HOME, everything);
    for (const t of [
      terminal(env, dir, 'n\n'),
      terminal(env, dir, '\n'),
      terminal(env, dir, 'y\n', false),
    ]) {
      expect(await runCli(['pages', 'read'], t.io)).toBe(EXIT_OK);
      expect(t.stdout()).toContain(
        'Nothing applied. Run `mnemo pages read --apply` to apply this change.',
      );
    }
    expect((await withStore(env.MNEMO_HOME, everything)).rows).toEqual(before.rows);
  });
});
