import { describe, expect, it } from 'vitest';

import { PROJECT, testMemory } from '../../../test/helpers/test-memory.js';
import type { Memory } from '../memory.js';
import { parsePage } from './parse-page.js';
import { planPageEdits } from './plan-page-edits.js';
import { renderPageSection, selectPage } from './render-page.js';

const a = testMemory({ id: '01JFXB0000000000000000000A', kind: 'decision', content: 'Use pnpm.' });
const b = testMemory({
  id: '01JFXB0000000000000000000B',
  kind: 'note',
  content: 'Tabs, not spaces.',
});
const c = testMemory({
  id: '01JFXB0000000000000000000C',
  kind: 'fix',
  content: 'Clear the cache.',
});

function written(memories: readonly Memory[]): {
  text: string;
  page: ReturnType<typeof selectPage>;
} {
  const page = selectPage({ projectKey: PROJECT, memories });
  return { text: renderPageSection(page), page };
}

function plan(edited: string, memories: readonly Memory[], lookup: readonly Memory[] = []) {
  return planPageEdits({
    projectKey: PROJECT,
    parsed: parsePage(edited.split('\n')),
    current: selectPage({ projectKey: PROJECT, memories }),
    lookup: new Map(lookup.map((m) => [m.id, m])),
  });
}

describe('planPageEdits', () => {
  it('plans nothing for the page as written', () => {
    const { text } = written([a, b, c]);
    expect(plan(text, [a, b, c])).toEqual({ steps: [], conflicts: [], notes: [], unchanged: 3 });
  });

  it('turns an added, a changed, a moved and a deleted entry into add, change and forget steps', () => {
    const { text } = written([a, b, c]);
    const edited = text
      .replace('- Use pnpm.', '- Use pnpm 9.')
      .replace('- Tabs, not spaces.', '- Two spaces.')
      .replace('\n\n### Preferences', '\n\n- Commit with conventional messages.\n\n### Preferences')
      .replace(/- Clear the cache\.\n {2}`mnemo [0-9A-Z]+`[^\n]*\n/u, '');
    const moved = edited.replace(
      '### Preferences\n\n_None yet._',
      '### Preferences\n\n- Dark mode in the viewer.',
    );
    const result = plan(moved, [a, b, c]);
    expect(result.conflicts).toEqual([]);
    expect(
      result.steps.map((s) =>
        s.action === 'add'
          ? [s.action, s.kind, s.text]
          : s.action === 'change'
            ? [s.action, s.memory.id, s.kind, s.previous, s.text]
            : [s.action, s.memory.id],
      ),
    ).toEqual([
      ['change', a.id, 'decision', 'Use pnpm.', 'Use pnpm 9.'],
      ['change', b.id, 'note', 'Tabs, not spaces.', 'Two spaces.'],
      ['add', 'note', 'Commit with conventional messages.'],
      ['add', 'preference', 'Dark mode in the viewer.'],
      ['forget', c.id],
    ]);
  });

  it('changes the kind of an entry moved to another section, text unchanged', () => {
    const { text } = written([a, b]);
    const lines = text.split('\n');
    const start = lines.indexOf('- Tabs, not spaces.');
    const entry = lines.splice(start, 2);
    lines.splice(lines.indexOf('### Preferences') + 2, 1, ...entry);
    const result = plan(lines.join('\n'), [a, b]);
    expect(result.steps).toMatchObject([
      {
        action: 'change',
        kind: 'preference',
        text: 'Tabs, not spaces.',
        previous: 'Tabs, not spaces.',
      },
    ]);
  });

  it('never forgets a memory written after the page, which its index does not list', () => {
    const { text } = written([a]);
    const later = testMemory({ kind: 'decision', content: 'Written after the page.' });
    const result = plan(text, [a, later]);
    expect(result.steps).toEqual([]);
  });

  it('forgets nothing from a page without an index, and says so', () => {
    const { text } = written([a, b]);
    const noIndex = text
      .replace(/<!-- mnemo:page:index\n[\s\S]*?\n-->\n/u, '')
      .replace(/- Use pnpm\.\n[^\n]*\n/u, '');
    const result = plan(noIndex, [a, b]);
    expect(result.steps).toEqual([]);
    expect(result.notes.join('\n')).toMatch(/no index.*nothing will be forgotten/u);
  });

  it('adds a repeated new entry once, and none that repeats an entry on the page', () => {
    const { text } = written([a]);
    const edited = text.replace(
      '### Decisions\n',
      '### Decisions\n\n- Use pnpm.\n\n- Fresh.\n\n- Fresh.\n',
    );
    const result = plan(edited, [a]);
    expect(result.steps).toMatchObject([{ action: 'add', text: 'Fresh.' }]);
    expect(result.notes).toHaveLength(2);
  });

  it('treats an unedited entry of a since replaced memory as unchanged, an edited one as a conflict', () => {
    const { text } = written([a]);
    const head = testMemory({
      id: '01JFXB0000000000000000000H',
      kind: 'decision',
      content: 'Use pnpm 10.',
      supersedes: a.id,
    });
    const replaced = { ...a, supersededBy: head.id };
    const untouched = plan(text, [head], [replaced, head]);
    expect(untouched.conflicts).toEqual([]);
    expect(untouched.steps).toEqual([]);
    expect(untouched.notes[0]).toMatch(/was replaced since the page was written/u);

    const edited = plan(text.replace('- Use pnpm.', '- Use yarn.'), [head], [replaced, head]);
    expect(edited.conflicts).toEqual([
      expect.objectContaining({
        id: a.id,
        message: expect.stringMatching(
          new RegExp(`replaced by ${head.id}.*pages write --force`, 'u'),
        ) as unknown,
      }),
    ]);
  });

  it('refuses entries whose memory is gone, in another project or not one the page may show', () => {
    const { text } = written([a, b, c]);
    const network = {
      ...b,
      origin: 'network',
      quarantine: 'approved' as const,
      sourceUrl: 'https://evil.example/x',
    };
    const elsewhere = { ...c, projectKey: '/p/beta' };
    const result = plan(text, [], [network, elsewhere]);
    expect(result.conflicts.map((x) => [x.id, x.message.split('.')[0]])).toEqual([
      [a.id, `memory ${a.id} no longer exists`],
      [b.id, `memory ${b.id} is not one the page may show (origin_not_allowlisted, read_from_web)`],
      [c.id, `memory ${c.id} belongs to another project`],
    ]);
  });
});
