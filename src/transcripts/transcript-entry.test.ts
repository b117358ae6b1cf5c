import { describe, expect, it } from 'vitest';

import { isInterruptResult, parseTranscriptLine, resultText } from './transcript-entry.js';

const base = {
  uuid: 'u1',
  parentUuid: null,
  isSidechain: false,
  userType: 'external',
  cwd: '/home/dev/work/acme-api',
  sessionId: 's1',
  timestamp: '2026-08-20T09:14:03.512Z',
};
const userLine = (content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...base, type: 'user', message: { role: 'user', content }, ...extra });

describe('parseTranscriptLine: typed prompts', () => {
  it('reads a string prompt and a prompt of text blocks, with the envelope fields', () => {
    expect(parseTranscriptLine(userLine('Why does /orders return 500?'))).toMatchObject({
      type: 'user',
      prompt: 'Why does /orders return 500?',
      sessionId: 's1',
      cwd: '/home/dev/work/acme-api',
      at: Date.parse('2026-08-20T09:14:03.512Z'),
      harnessText: false,
    });
    const blocks = [
      { type: 'text', text: 'first part' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'text', text: 'second part' },
    ];
    expect(parseTranscriptLine(userLine(blocks))?.prompt).toBe('first part\nsecond part');
  });

  it.each([
    ['a tool result', [{ type: 'tool_result', tool_use_id: 't1', content: 'file text' }], {}],
    [
      'text beside a tool result',
      [
        { type: 'tool_result', tool_use_id: 't1', content: 'x' },
        { type: 'text', text: 'looks typed' },
      ],
      {},
    ],
    ['a meta caveat', 'Caveat: the messages below…', { isMeta: true }],
    ['the compaction summary', 'Summary of the conversation', { isCompactSummary: true }],
    [
      'an unflagged compaction summary',
      'This session is being continued from a previous conversation that ran out of context.',
      {},
    ],
    ['a sub-agent prompt', 'Find the call sites', { isSidechain: true }],
    ['a sub-agent prompt by id', 'Find the call sites', { agentId: 'a4d2' }],
    ['a slash command', '<command-name>/cost</command-name>', {}],
    ['local command output', '<local-command-stdout>Total cost: $0.42</local-command-stdout>', {}],
    ['shell-mode output', '<bash-stdout>curl output from a web page</bash-stdout>', {}],
    ['a system reminder', '  <system-reminder>do X</system-reminder>', {}],
    ['an interruption marker', [{ type: 'text', text: '[Request interrupted by user]' }], {}],
    ['a line with a structured tool result', 'text', { toolUseResult: { stdout: 'x' } }],
    ['a non-external user type', 'text', { userType: 'internal' }],
    ['an unknown block type', [{ type: 'document', source: {} }], {}],
  ])('does not take %s for a typed prompt', (_name, content, extra) => {
    const entry = parseTranscriptLine(userLine(content, extra));
    expect(entry).toBeDefined();
    expect(entry?.prompt).toBeUndefined();
  });

  it('marks harness text as such, and tool results as results', () => {
    expect(parseTranscriptLine(userLine('<command-name>/clear</command-name>'))?.harnessText).toBe(
      true,
    );
    const results = parseTranscriptLine(
      userLine([{ type: 'tool_result', tool_use_id: 't1', content: 'x', is_error: true }], {
        toolUseResult: 'Error: x',
      }),
    );
    expect(results).toMatchObject({
      harnessText: false,
      toolResults: [{ toolUseId: 't1', isError: true, content: 'x', structured: 'Error: x' }],
    });
  });
});

describe('parseTranscriptLine: tool calls', () => {
  it('reads tool uses and counts assistant prose, which is no channel', () => {
    const line = JSON.stringify({
      ...base,
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'text', text: 'Decision: we use pnpm. IMPORTANT.' },
          { type: 'tool_use', id: 'toolu_1', name: 'Edit', input: { file_path: '/a.ts' } },
          { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: 'not an object' },
          { type: 'tool_use', name: 'NoId', input: {} },
        ],
      },
    });
    expect(parseTranscriptLine(line)).toMatchObject({
      type: 'assistant',
      assistantText: 2,
      toolUses: [
        { id: 'toolu_1', name: 'Edit', input: { file_path: '/a.ts' } },
        { id: 'toolu_2', name: 'Bash', input: {} },
      ],
    });
    expect(parseTranscriptLine(line)?.prompt).toBeUndefined();
  });

  it('gives the structured result only to a line with a single tool result', () => {
    const two = parseTranscriptLine(
      userLine(
        [
          { type: 'tool_result', tool_use_id: 'a', content: 'x' },
          { type: 'tool_result', tool_use_id: 'b', content: 'y' },
        ],
        { toolUseResult: { stdout: 'x' } },
      ),
    );
    expect(two?.toolResults.map((r) => r.structured)).toEqual([undefined, undefined]);
  });

  it('recognises an interrupted call and joins text blocks of a result', () => {
    const interrupted = parseTranscriptLine(
      userLine([
        {
          type: 'tool_result',
          tool_use_id: 't',
          is_error: true,
          content: '[Request interrupted by user for tool use]',
        },
      ]),
    )?.toolResults[0];
    expect(interrupted !== undefined && isInterruptResult(interrupted)).toBe(true);
    expect(
      resultText([
        { type: 'text', text: 'a' },
        { type: 'image', source: {} },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('a\nb');
  });
});

describe('parseTranscriptLine: malformed lines', () => {
  it.each([
    ['truncated JSON', '{"type":"assistant","message":'],
    ['plain text', 'not json'],
    ['an array', '[1,2]'],
    ['no type', '{"message":{}}'],
    ['deep nesting', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['empty', ''],
  ])('returns undefined for %s', (_name, text) => {
    expect(parseTranscriptLine(text)).toBeUndefined();
  });

  it('keeps unknown line types as entries with nothing to capture', () => {
    expect(parseTranscriptLine('{"type":"file-history-snapshot","snapshot":{}}')).toEqual({
      type: 'file-history-snapshot',
      harnessText: false,
      toolUses: [],
      toolResults: [],
      assistantText: 0,
    });
  });
});
