/**
 * A person's `mnemo remember "Decision: …"` is a decision (core/kind-prefix.ts), so the session-start
 * pack, which carries decisions and preferences, brings it into the next session. Built binary, real
 * store, the recorded SessionStart payload.
 */
import { describe, expect, it } from 'vitest';

import { hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();

function idOf(stdout: string): string {
  const id = /Remembered (\S+)/u.exec(stdout)?.[1];
  expect(id).toBeDefined();
  return id!;
}

describe('mnemo remember with a leading label (built binary)', () => {
  it('stores "Decision:" as a decision that the next session start carries, and an explicit --kind over it', async () => {
    const home = newHome();
    const decision = idOf(
      (await home.run(['remember', 'Decision: use pnpm, not npm, for every script'])).stdout,
    );
    const explicit = idOf(
      (await home.run(['remember', 'Fix: the flaky pool test was a race', '--kind', 'note']))
        .stdout,
    );
    const listed = JSON.parse((await home.run(['get', decision, '--json'])).stdout) as {
      kind: string;
    };
    expect(listed.kind).toBe('decision');
    const other = JSON.parse((await home.run(['get', explicit, '--json'])).stdout) as {
      kind: string;
    };
    expect(other.kind).toBe('note');

    const start = await runHookBin(
      home,
      'session-start',
      hookFixture('session-start.startup', { cwd: home.project }),
    );
    expect(start.code).toBe(0);
    const context = (
      JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }
    ).hookSpecificOutput.additionalContext;
    expect(context).toContain(`id=${decision} · decision · origin=user`);
    expect(context).toContain('> Decision: use pnpm, not npm, for every script');
  });
});
