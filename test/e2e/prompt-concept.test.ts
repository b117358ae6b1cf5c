/**
 * The README's example through the built hook: a question that names only the kind of a tool ("which
 * package manager") gets the memory that names the tool ("We use pnpm") injected in full, because the
 * concept leg's hit counts the cue's words as answered; a generic question in the same project gets
 * nothing. Built binary, a real store of 33 memories (the decision and the first 32 of the coding-memory
 * set), the recorded UserPromptSubmit payload with a new session each time.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { resolveProjectKey } from '../../src/project/project-key.js';
import { hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { REPO_ROOT, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

/** The first memories of the coding-memory set's first project: the README example's store. */
function codingMemories(count: number): { text: string; kind: string }[] {
  const data = JSON.parse(
    readFileSync(`${REPO_ROOT}/bench/datasets/coding-memories.json`, 'utf8'),
  ) as { conversations: { sessions: { turns: { speaker: string; text: string }[] }[] }[] };
  return data.conversations[0]!.sessions.flatMap((session) =>
    session.turns.map((turn) => ({ text: turn.text, kind: turn.speaker })),
  ).slice(0, count);
}

const newHome = useTestHomes();

function idOf(stdout: string): string {
  const id = /Remembered (\S+)/u.exec(stdout)?.[1];
  expect(id).toBeDefined();
  return id!;
}

describe('prompt recall of a concept question (built binary)', () => {
  it('injects "We use pnpm" in full for "which package manager" and nothing for a generic question', async () => {
    const home = newHome();
    const pnpm = idOf(
      (
        await home.run([
          'remember',
          'We use pnpm, not npm, in this repo',
          '--kind',
          'decision',
          '--tag',
          'tooling',
        ])
      ).stdout,
    );
    await withStore(home.home, async (app) => {
      for (const { text, kind } of codingMemories(32)) {
        await app.store.remember({
          content: text,
          projectKey: resolveProjectKey(home.project),
          origin: 'user',
          kind: kind as 'note',
        });
      }
    });

    const ask = async (prompt: string, session: string) => {
      const out = await runHookBin(
        home,
        'user-prompt-submit',
        hookFixture('user-prompt-submit', {
          cwd: home.project,
          sessionId: session,
          patch: { prompt },
        }),
      );
      expect(out.code).toBe(0);
      return out.stdout;
    };
    const stdout = await ask('which package manager', 'concept-1');
    const context = (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    const entries = context.split('\n').filter((line) => line.startsWith('['));
    expect(entries[0]).toContain(`id=${pnpm} · decision · origin=user`);
    expect(entries[0]).not.toContain('index');
    expect(context).toContain('> We use pnpm, not npm, in this repo');

    expect(await ask('How do I reverse a list in Python?', 'concept-2')).toBe('');
  });
});
