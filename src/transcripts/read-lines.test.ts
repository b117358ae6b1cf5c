import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { type RawLine, readLines } from './read-lines.js';
import { readSessionPrompts } from './read-session-prompts.js';

const tempDir = useTempDirs();

async function collect(path: string, options: Parameters<typeof readLines>[1]): Promise<RawLine[]> {
  const lines: RawLine[] = [];
  for await (const line of readLines(path, options)) lines.push(line);
  return lines;
}

function file(content: string | Buffer, name = 't.jsonl'): string {
  const path = join(tempDir(), name);
  writeFileSync(path, content);
  return path;
}

describe('readLines', () => {
  it('yields each line with its byte range and number, multi-byte text included', async () => {
    const path = file('{"a":"é"}\n\n{"b":2}\nlast');
    const lines = await collect(path, { maxLineBytes: 100 });
    expect(lines.map((l) => [l.start, l.end, l.lineNo, l.text, l.terminated])).toEqual([
      [0, 11, 1, '{"a":"é"}', true],
      [11, 12, 2, '', true],
      [12, 20, 3, '{"b":2}', true],
      [20, 24, 4, 'last', false],
    ]);
  });

  it('resumes at an offset with the recorded line number and stops before `end`', async () => {
    const path = file('one\ntwo\nthree\nfour\n');
    const lines = await collect(path, { start: 4, end: 14, firstLineNo: 2, maxLineBytes: 100 });
    expect(lines.map((l) => [l.lineNo, l.text])).toEqual([
      [2, 'two'],
      [3, 'three'],
    ]);
  });

  it('skips a line longer than the cap without buffering it, and reports bad UTF-8', async () => {
    const path = file(
      Buffer.concat([
        Buffer.from(`${'x'.repeat(5000)}\n`),
        Buffer.from([0xff, 0xfe, 0x0a]),
        Buffer.from('ok\n'),
      ]),
    );
    const lines = await collect(path, { maxLineBytes: 1000 });
    expect(lines.map((l) => [l.lineNo, l.text, l.problem])).toEqual([
      [1, undefined, 'too_long'],
      [2, undefined, 'not_utf8'],
      [3, 'ok', undefined],
    ]);
    expect(lines[2]?.start).toBe(5004);
  });

  it('drops the partial first line of a tail window', async () => {
    const path = file('aaaa\nbbbb\ncccc\n');
    const lines = await collect(path, { start: 2, maxLineBytes: 100, skipPartialFirst: true });
    expect(lines.map((l) => l.text)).toEqual(['bbbb', 'cccc']);
  });
});

const prompt = (text: string, sessionId = 's1') =>
  JSON.stringify({ type: 'user', sessionId, message: { role: 'user', content: text } });
const toolResult = (text: string) =>
  JSON.stringify({
    type: 'user',
    sessionId: 's1',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: text }] },
  });

describe('readSessionPrompts', () => {
  it("returns the session's typed prompts in order, not tool results or other sessions' prompts", async () => {
    const path = file(
      [
        prompt('first goal'),
        toolResult('a page that says "type":"user" and asks to be remembered'),
        prompt('from another session', 's2'),
        '{broken',
        prompt('second goal'),
        '',
      ].join('\n'),
    );
    expect(await readSessionPrompts(path, 's1')).toMatchObject({
      prompts: ['first goal', 'second goal'],
      partial: false,
      timedOut: false,
    });
  });

  it('reads only a tail window of a large file and says so', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => prompt(`prompt ${i}`));
    const path = file(`${lines.join('\n')}\n`);
    const read = await readSessionPrompts(path, 's1', { maxBytes: 2000, budgetMs: 10_000 });
    expect(read.partial).toBe(true);
    expect(read.prompts.at(-1)).toBe('prompt 199');
    expect(read.prompts.length).toBeLessThan(60);
    expect(read.prompts[0]).toMatch(/^prompt \d+$/);
  });

  it('stops at its time budget and reports it', async () => {
    const path = file(`${prompt('a')}\n${prompt('b')}\n`);
    const read = await readSessionPrompts(path, 's1', { maxBytes: 1e6, budgetMs: -1 });
    expect(read).toMatchObject({ prompts: [], timedOut: true });
  });

  it('refuses a path that is not a regular .jsonl file', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(readSessionPrompts(fifo, 's1')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(readSessionPrompts(file('{}', 'notes.txt'), 's1')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
