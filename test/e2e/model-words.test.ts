/**
 * `mnemo model words` end to end, through the built binary: it converts the optional GloVe package into
 * the word-vector table once, says so on a second run, and `mnemo recall` then runs the words leg with
 * its own model id and finds a memory by related words that share no term with the query. The package
 * is an optional dependency that a plain `npm ci` installs; without it this test fails and says so.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { findWordVectorSource, WORD_VECTOR_PACKAGE } from '../../src/embed/word-table.js';
import { useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();
const HASH = { MNEMO_EMBEDDING_MODEL: 'hash' };

describe('mnemo model words', () => {
  it('builds the table once, and recall then finds a memory by related words through the words leg', async () => {
    expect(
      findWordVectorSource(),
      `${WORD_VECTOR_PACKAGE} is missing: install the optional dependencies (npm ci)`,
    ).toBeDefined();
    const t = newHome();
    const built = await t.run(['model', 'words'], { env: HASH });
    expect(built.stderr).toContain('converting');
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(/^Built the word-vector table: \d+ words, 100-d, [\d.]+ MB at /);
    const table = join(t.home, 'models', 'glove-100d.bin');
    expect(existsSync(table)).toBe(true);
    const bytes = statSync(table).size;
    expect(bytes).toBeGreaterThan(10 * 2 ** 20);

    const again = await t.run(['model', 'words'], { env: HASH });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already built');
    expect(statSync(table).size).toBe(bytes);

    await t.run(['remember', 'The database connection pool was full under load'], { env: HASH });
    await t.run(['remember', 'Friday lunch is pizza with the team'], { env: HASH });
    const result = await t.run(
      ['recall', 'postgres', 'ran', 'short', 'of', 'sockets', '--explain', '--json'],
      {
        env: HASH,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout) as {
      hits: { memory: { content: string }; ranks: Record<string, number> }[];
      explain: { legs: { name: string; ran: boolean; detail?: string }[] };
    };
    const words = body.explain.legs.find((leg) => leg.name === 'words');
    expect(words).toMatchObject({ ran: true });
    expect(words?.detail).toMatch(/^glove-sif-100/);
    expect(body.explain.legs.find((leg) => leg.name === 'lexical')).toMatchObject({ ran: true });
    expect(body.hits[0]?.memory.content).toContain('database connection pool');
    expect(Object.keys(body.hits[0]!.ranks)).toContain('words');
    expect(body.hits[0]!.ranks['lexical']).toBeUndefined();
  });
});
