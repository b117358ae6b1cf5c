import { describe, expect, it } from 'vitest';

import { BEGIN_MARKER, END_MARKER } from './page-format.js';
import { parsePage } from './parse-page.js';

const ID_A = '01JFXA0000000000000000000A';
const ID_B = '01JFXA0000000000000000000B';

function page(...body: string[]): string[] {
  return [
    BEGIN_MARKER,
    '## Project memory',
    '',
    'intro text, ignored',
    '- and a list here is an error',
    ...body,
    END_MARKER,
  ];
}

function sections(...body: string[]): string[] {
  return [BEGIN_MARKER, '## Project memory', '', 'intro', ...body, END_MARKER];
}

describe('parsePage', () => {
  it('reads added, kept and indented entries, lenient about bullets, tabs and heading case', () => {
    const parsed = parsePage(
      sections(
        '### decisions',
        '',
        '- Use pnpm.',
        `  \`mnemo ${ID_A}\` · 2026-01-02 · user via cli`,
        '',
        '* A new one',
        '\twith a tab-indented line',
        '',
        '  and a paragraph after a blank line   ',
        '',
        '### Known fixes ###',
        '_None yet._',
        '+ \\# escaped heading',
        `  \`mnemo ${ID_B}\``,
        '',
        '<!-- mnemo:page:index',
        ID_A,
        ID_B,
        '-->',
      ),
      10,
    );
    expect(parsed.entries).toEqual([
      { id: ID_A, section: 'decisions', text: 'Use pnpm.', line: 16 },
      {
        id: null,
        section: 'decisions',
        text: 'A new one\nwith a tab-indented line\n\nand a paragraph after a blank line',
        line: 19,
      },
      { id: ID_B, section: 'fixes', text: '# escaped heading', line: 26 },
    ]);
    expect(parsed.index).toEqual([ID_A, ID_B]);
  });

  it('reports a page without an index as having none', () => {
    expect(parsePage(sections('### Decisions', '- x')).index).toBeNull();
  });

  it.each([
    [page('### Decisions'), /line 5: an entry before the first section heading/u],
    [
      sections('### Todo', '- x'),
      /line 5: unknown section "Todo"\. The page has these sections: Decisions, Conventions/u,
    ],
    [sections('### Decisions', 'loose text'), /line 6: text outside an entry/u],
    [sections('### Decisions', '  indented text'), /line 6: an indented line outside an entry/u],
    [
      sections('### Decisions', '- x', '  `mnemo 01JFXA0000` · cut short'),
      /line 7: this id line is damaged/u,
    ],
    [
      sections('### Decisions', '- x', `  \`mnemo ${ID_A}\``, '  more text'),
      /line 7: an entry's id line must be its last line/u,
    ],
    [
      sections('### Decisions', '- x', `  \`mnemo ${ID_A}\``, '- y', `  \`mnemo ${ID_A}\``),
      new RegExp(`line 8: memory ${ID_A} is on the page twice \\(also line 6\\)`, 'u'),
    ],
    [sections('### Decisions', '-'), /line 6: an empty entry/u],
    [sections('### Decisions', '### Decisions'), /line 6: the section "Decisions" appears twice/u],
    [sections('### Decisions', '## Other heading'), /line 6: a heading inside the sections/u],
    [
      sections('### Decisions', '<!-- mnemo:page:index', 'not-an-id', '-->'),
      /line 7: "not-an-id" in the index is not a memory id/u,
    ],
    [sections('### Decisions', '<!-- mnemo:page:index', ID_A), /line 6: the index is not closed/u],
    [
      sections('### Decisions', '<!-- mnemo:page:index', '-->', '- late'),
      /line 8: text after the index/u,
    ],
    [[BEGIN_MARKER.replace('v1', 'v9'), END_MARKER], /written by a newer mnemo \(format v9\)/u],
    [[BEGIN_MARKER, '### Decisions'], /does not end with its end marker/u],
  ])('refuses a malformed page with the line and what to do (%#)', (lines, message) => {
    expect(() => parsePage(lines)).toThrow(message);
  });
});
