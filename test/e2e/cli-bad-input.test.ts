/**
 * Every refused input: a clear message on stderr, a non-zero exit, and the store exactly as before
 * (compared through a full export, which includes access counts and timestamps).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { beforeEach, describe, expect, it } from 'vitest';

import {
  exportRows,
  idFrom,
  type RunResult,
  type TestHome,
  useTestHomes,
} from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();

let t: TestHome;
let before: string;

beforeEach(async () => {
  t = newHome();
  idFrom((await t.run(['remember', 'an existing memory', '--tag', 'seed'])).stdout);
  before = await exportRows(t);
});

async function expectRefused(result: RunResult, message: RegExp): Promise<void> {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe('');
  expect(await exportRows(t)).toBe(before);
}

describe('mnemo refuses bad input and changes nothing', () => {
  it('refuses empty content', async () => {
    await expectRefused(
      await t.run(['remember', '']),
      /^mnemo: Memory content is empty\. Give the text to remember\.\n$/,
    );
  });

  it('refuses whitespace-only content, from argv and from stdin', async () => {
    await expectRefused(await t.run(['remember', '  \t ']), /Memory content is empty/);
    await expectRefused(
      await t.run(['remember', '-'], { input: '\n\n   \n' }),
      /Memory content is empty/,
    );
  });

  it('refuses content over the limit and says how to split it', async () => {
    await expectRefused(
      await t.run(['remember', '-'], { input: 'x'.repeat(32_769) }),
      /Memory content is 32769 characters; the limit is 32768\. Split it into smaller memories/,
    );
  });

  it('refuses invalid UTF-8 on stdin instead of storing replacement characters', async () => {
    await expectRefused(
      await t.run(['remember', '-'], { input: Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x21]) }),
      /^mnemo: stdin is not valid UTF-8\. Convert it first/,
    );
  });

  it('refuses a NUL byte', async () => {
    await expectRefused(
      await t.run(['remember', '-'], { input: Buffer.from('before\0after') }),
      /Memory content contains a NUL byte\. Remove binary data/,
    );
  });

  it('refuses an unknown kind and lists the allowed ones', async () => {
    await expectRefused(
      await t.run(['remember', 'text', '--kind', 'rumour']),
      /argument 'rumour' is invalid\. Allowed choices are note, decision/,
    );
  });

  it('refuses an invalid tag', async () => {
    await expectRefused(
      await t.run(['remember', 'text', '--tag', 'two words']),
      /Tag "two words" is invalid/,
    );
  });

  it('refuses a --project directory that does not exist', async () => {
    await expectRefused(
      await t.run(['remember', 'text', '--project', 'no-such-dir']),
      /Project directory ".*\/project\/no-such-dir" does not exist\. Pass an existing directory/,
    );
  });

  it('reports an unknown id for get and forget, pointing at mnemo list', async () => {
    const unknown = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const message = new RegExp(
      `^mnemo: No memory with id ${unknown}\\. Run \`mnemo list\` to see ids\\.\\n$`,
    );
    await expectRefused(await t.run(['get', unknown]), message);
    await expectRefused(await t.run(['forget', unknown]), message);
  });

  it('refuses something that is not an id', async () => {
    await expectRefused(await t.run(['forget', 'last-one']), /"last-one" is not a memory id/);
  });

  it('refuses non-numeric and out-of-range limits', async () => {
    await expectRefused(
      await t.run(['recall', 'x', '--limit', 'abc']),
      /option '-n, --limit <n>' argument 'abc' is invalid\. Give a whole number from 1 to 1000\./,
    );
    await expectRefused(
      await t.run(['list', '--limit', '0']),
      /Give a whole number from 1 to 1000/,
    );
    await expectRefused(await t.run(['list', '-n', '2.5']), /Give a whole number/);
  });

  it('refuses an unknown command and a missing argument with a pointer to --help', async () => {
    await expectRefused(
      await t.run(['remmeber', 'x']),
      /unknown command 'remmeber'[\s\S]*mnemo --help/,
    );
    await expectRefused(await t.run(['get']), /missing required argument 'id'/);
  });

  it('refuses an empty recall query', async () => {
    await expectRefused(await t.run(['recall', '   ']), /The query is empty/);
  });

  it('refuses a date it cannot read in the words of the option, never a store field', async () => {
    for (const [flag, value] of [
      ['--since', 'yesterdy'],
      ['--until', '2026-02-30'],
    ] as const) {
      const result = await t.run(['recall', 'existing', flag, value]);
      await expectRefused(
        result,
        new RegExp(
          `^mnemo: ${flag} "${value}" is not a date\\. Give an ISO date such as 2026-08-01 or 2026-08-01T09:00:00Z, today, yesterday, or an age such as 3d, 2w or 12h\\.\\n$`,
        ),
      );
      expect(result.stderr).not.toMatch(/created(After|Before)/);
    }
  });
});

describe('mnemo recall takes dates as a person types them', () => {
  it('finds a memory written just now with --since yesterday, 3d or 2w, and not with --until 3d', async () => {
    const found = async (...args: string[]) => {
      const result = await t.run(['recall', 'existing memory', '--json', ...args]);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      return (JSON.parse(result.stdout) as { hits: unknown[] }).hits.length;
    };
    expect(await found('--since', 'yesterday')).toBe(1);
    expect(await found('--since', '3d')).toBe(1);
    expect(await found('--since', '2w', '--until', 'today')).toBe(1);
    expect(await found('--until', '3d')).toBe(0);
    expect(await found('--until', '2000-01-01')).toBe(0);
  });
});

describe('mnemo import refuses a bad file and imports nothing from it', () => {
  async function importText(lines: readonly string[]): Promise<RunResult> {
    return t.run(['import', '-'], { input: lines.join('\n') });
  }

  function goodLines(): string[] {
    return before.trimEnd().split('\n');
  }

  function freshRecord(id: string, content: string): string {
    const record = JSON.parse(goodLines()[0]!) as Record<string, unknown>;
    record.id = id;
    record.content = content;
    return JSON.stringify(record);
  }

  it('names the line that is not JSON', async () => {
    const valid = freshRecord('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'an existing memory');
    await expectRefused(
      await importText([valid, '{ not json']),
      /stdin has 1 invalid line; nothing was imported:\n {2}line 2: not JSON/,
    );
  });

  it('names the field that violates the schema', async () => {
    const record = JSON.parse(goodLines()[0]!) as Record<string, unknown>;
    record.id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    record.kind = 'rumour';
    await expectRefused(
      await importText([JSON.stringify(record)]),
      /line 1: field "kind" Invalid option/,
    );
  });

  it('refuses hand-edited content whose hash no longer matches', async () => {
    await expectRefused(
      await importText([freshRecord('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'edited by hand')]),
      /line 1: field "contentHash" does not match the content/,
    );
  });

  it('refuses a line with invalid UTF-8 and names it', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${goodLines()[0]}\n`),
      Buffer.from([0x7b, 0xc3, 0x28, 0x7d]),
    ]);
    await expectRefused(await t.run(['import', '-'], { input: bytes }), /line 2: not valid UTF-8/);
  });

  it('refuses a repeated id', async () => {
    const line = freshRecord('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'an existing memory');
    await expectRefused(
      await importText([line, line]),
      /line 2: id 01ARZ3NDEKTSV4RRFFQ69G5FAV already appears on line 1/,
    );
  });

  it('refuses an unknown field as written by a newer mnemo', async () => {
    const record = JSON.parse(goodLines()[0]!) as Record<string, unknown>;
    record.orgVisible = true;
    await expectRefused(await importText([JSON.stringify(record)]), /unknown field "orgVisible"/);
  });

  it('reports a file that cannot be read', async () => {
    mkdirSync(join(t.project, 'a-directory.jsonl'));
    await expectRefused(
      await t.run(['import', 'a-directory.jsonl']),
      /Cannot read a-directory\.jsonl .*Check the path, or pass - to read stdin/,
    );
    await expectRefused(await t.run(['import', 'missing.jsonl']), /Cannot read missing\.jsonl/);
  });
});
