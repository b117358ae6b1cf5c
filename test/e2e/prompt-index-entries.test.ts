/**
 * Prompt recall's index entries through the built binary (`mnemo hook user-prompt-submit`, then
 * `mnemo ledger`), with no engine and with `mnemo serve` answering: a vague prompt points the session at
 * a memory with a one-line index entry; the same vague prompt does not point at it again; a later,
 * specific prompt brings its full text (the session had seen that it exists, not what it says); after
 * that, neither prompt sends it again. The ledger and `mnemo explain` say which injection showed what,
 * and how.
 */
import { describe, expect, it } from 'vitest';

import { pingEngine } from '../../src/engine/engine-client.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { idFrom, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();
const engines = useEngines();

const SESSION = '5d0c4b3a-2e1f-4a09-8b7c-6d5e4f3a2b1c';
const PAGINATION =
  'Decision: orders pagination uses keyset cursors on (created_at, id) because offset pages drifted under concurrent inserts last spring.';
const OTHERS = [
  'Decision: we use Stripe Checkout instead of building our own card form, so card data never touches our servers and PCI scope stays SAQ A.',
  'Convention: every new endpoint logs through pino with the request id; never console.log in services.',
  'Fix: the invoice job sent duplicate emails because two workers picked the same rows; it now claims rows with SELECT ... FOR UPDATE SKIP LOCKED.',
  'Preference: run database migrations with expand and contract; never drop a column in the same release that stops writing it.',
];
const VAGUE = 'how does pagination work here?';
const SPECIFIC = 'why do the orders pages use keyset cursors instead of offset?';

/** The `additionalContext` a prompt got, or '' when the hook printed nothing. */
async function ask(home: TestHome, prompt: string): Promise<string> {
  const result = await runHookBin(
    home,
    'user-prompt-submit',
    hookFixture('user-prompt-submit', { cwd: home.project, sessionId: SESSION, patch: { prompt } }),
  );
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  if (result.stdout === '') return '';
  return (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } })
    .hookSpecificOutput.additionalContext;
}

describe.each(['down', 'up'] as const)(
  'index entries of prompt recall (built binary, engine %s)',
  (mode) => {
    it('points at a memory once, then brings it in full when a prompt is confident of it', async () => {
      const home = newHome();
      const remember = async (text: string) => {
        const result = await home.run(['remember', text]);
        expect(result.code, result.stderr).toBe(0);
        return idFrom(result.stdout);
      };
      const id = await remember(PAGINATION);
      for (const text of OTHERS) await remember(text);
      if (mode === 'up') {
        await engines.start(home, ['--idle-exit', '0'], { MNEMO_EMBEDDING_MODEL: 'hash' });
        await waitFor('the engine to embed every memory', async () => {
          const ping = await pingEngine({ home: home.home }, 2000);
          return ping !== undefined && ping.queues.unembedded === 0;
        });
      }

      const pointed = await ask(home, VAGUE);
      expect(pointed).toMatch(new RegExp(`id=${id} · decision · [^\\n]* · index\\n`));
      expect(pointed).toContain('> Decision: orders pagination uses keyset cursors on');
      expect(pointed).not.toContain(PAGINATION);
      const explained = await home.run(['explain', id]);
      expect(explained.stdout).toMatch(
        new RegExp(`last injected: \\S+ \\(prompt-recall as an index line, session ${SESSION}\\)`),
      );
      // Already pointed at: the same vague prompt adds nothing.
      expect(await ask(home, VAGUE)).toBe('');
      // Confident now: the full text, though this session saw the memory's index entry.
      const read = await ask(home, SPECIFIC);
      expect(read).toContain(`id=${id} · decision`);
      expect(read).toContain(`> ${PAGINATION}`);
      expect((await home.run(['explain', id])).stdout).toMatch(
        new RegExp(`last injected: \\S+ \\(prompt-recall, session ${SESSION}\\)`),
      );
      // Read in full: never again in this session, as either tier.
      expect(await ask(home, SPECIFIC)).toBe('');
      expect(await ask(home, VAGUE)).toBe('');

      const ledger = await home.run(['ledger', '--session', SESSION]);
      expect(ledger.code, ledger.stderr).toBe(0);
      const rows = ledger.stdout.split('\n').filter((line) => line.includes('prompt-recall  '));
      expect(rows.map((line) => line.replace(/^.* tokens {2}/u, ''))).toEqual([
        `${id} (index line)`,
        id,
      ]);
      if (mode === 'up') {
        const ping = await pingEngine({ home: home.home }, 5000);
        expect(ping?.injections).toBe(5);
      }
    });
  },
);
