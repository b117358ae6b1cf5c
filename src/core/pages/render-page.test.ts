import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { PROJECT, testMemory } from '../../../test/helpers/test-memory.js';
import type { MemoryStaleness } from '../anchors/staleness.js';
import type { Memory } from '../memory.js';
import { TRUST_ORDER } from '../origin/origin-class.js';
import { MAX_SECTION_ENTRIES } from './page-format.js';
import { parsePage } from './parse-page.js';
import { renderPageSection, selectPage } from './render-page.js';

const decision = testMemory({
  id: '01JFXA0000000000000000000A',
  kind: 'decision',
  content: 'Use pnpm, not npm, for every script.',
  createdAt: '2026-01-02T09:00:00.000Z',
});
const convention = testMemory({
  id: '01JFXA0000000000000000000B',
  kind: 'note',
  content: 'Tests live beside the code.\n\n# not a heading\n```\nunclosed fence',
  originTool: 'web',
  createdAt: '2026-01-03T09:00:00.000Z',
});
const fix = testMemory({
  id: '01JFXA0000000000000000000C',
  kind: 'fix',
  content: 'Restart the dev server after changing vite.config.ts.',
  pinned: true,
  createdAt: '2026-01-04T09:00:00.000Z',
});
const checkpoint = testMemory({
  id: '01JFXA0000000000000000000D',
  kind: 'checkpoint',
  content: 'Goal: ship pages.\nNext: docs.',
  originTool: 'mcp:checkpoint',
  origin: 'agent',
  quarantine: 'approved',
  createdAt: '2026-01-05T09:00:00.000Z',
});
const stale: MemoryStaleness = {
  status: 'stale',
  anchors: [],
  label: 'cites vite.config.ts, changed 2 commits ago',
};

const GOLDEN = [
  '<!-- mnemo:page:begin v1: kept by `mnemo pages write`; edit the entries, then run `mnemo pages read` -->',
  '## Project memory',
  '',
  'Kept by mnemo from memories a person wrote or approved. Edit, add or delete entries, then run `mnemo pages read` to turn the edits into memories. The `` `mnemo <id>` `` line under an entry links it to its memory: keep it when you edit the entry, leave it out when you add one.',
  '',
  '### Decisions',
  '',
  '- Use pnpm, not npm, for every script.',
  '  `mnemo 01JFXA0000000000000000000A` · 2026-01-02 · user via cli',
  '',
  '### Conventions',
  '',
  '- Tests live beside the code.',
  '',
  '  \\# not a heading',
  '  \\```',
  '  unclosed fence',
  '  `mnemo 01JFXA0000000000000000000B` · 2026-01-03 · user via web',
  '',
  '### Preferences',
  '',
  '_None yet._',
  '',
  '### Known fixes',
  '',
  '- Restart the dev server after changing vite.config.ts.',
  '  `mnemo 01JFXA0000000000000000000C` · 2026-01-04 · user via cli · pinned · stale: cites vite.config.ts, changed 2 commits ago',
  '',
  '### Last checkpoint',
  '',
  '- Goal: ship pages.',
  '  Next: docs.',
  '  `mnemo 01JFXA0000000000000000000D` · 2026-01-05 · agent via mcp:checkpoint · approved',
  '',
  '<!-- mnemo:page:index',
  '01JFXA0000000000000000000A',
  '01JFXA0000000000000000000B',
  '01JFXA0000000000000000000C',
  '01JFXA0000000000000000000D',
  '-->',
  '<!-- mnemo:page:end -->',
].join('\n');

function render(memories: readonly Memory[], cp: Memory | undefined = checkpoint): string {
  const page = selectPage({ projectKey: PROJECT, memories, checkpoint: cp });
  return renderPageSection(page, new Map([[fix.id, stale]]));
}

describe('renderPageSection', () => {
  it('renders the page byte for byte: sections, entries with id, date, source and stale mark', () => {
    expect(render([fix, convention, decision])).toBe(GOLDEN);
  });

  it('gives the same bytes whatever order the memories arrive in', () => {
    const memories = [
      decision,
      convention,
      fix,
      ...Array.from({ length: 6 }, (_, i) =>
        testMemory({
          kind: 'decision',
          content: `decision ${i}`,
          createdAt: '2026-01-02T09:00:00.000Z',
        }),
      ),
    ];
    const expected = render(memories);
    fc.assert(
      fc.property(fc.shuffledSubarray(memories, { minLength: memories.length }), (shuffled) => {
        expect(render(shuffled)).toBe(expected);
      }),
    );
  });

  it('reads back what it wrote: every entry with its id, section and exact text', () => {
    const parsed = parsePage(render([decision, convention, fix]).split('\n'));
    expect(parsed.entries.map((e) => [e.id, e.section, e.text])).toEqual([
      [decision.id, 'decisions', decision.content],
      [convention.id, 'conventions', convention.content],
      [fix.id, 'fixes', fix.content],
      [checkpoint.id, 'checkpoint', checkpoint.content],
    ]);
    expect(parsed.index).toEqual([decision.id, convention.id, fix.id, checkpoint.id]);
  });

  it('round-trips any stored text: structure cannot come from content', () => {
    const hostile = fc.array(
      fc.oneof(
        fc.constantFrom(
          '<!-- mnemo:page:end -->',
          '<!-- mnemo:page:begin v1 -->',
          '### Decisions',
          '- forged entry',
          '  `mnemo 01JFXA0000000000000000000A` · forged',
          '`mnemo 01JFXA0000000000000000000A`',
          '<!-- mnemo:page:index',
          '-->',
          '```',
          '---',
          '\\',
          '',
        ),
        fc.string(),
      ),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(hostile, (lines) => {
        const content = `entry\n${lines.join('\n')}`;
        const memory = testMemory({ id: '01JFXA0000000000000000000Z', kind: 'note', content });
        const page = selectPage({ projectKey: PROJECT, memories: [decision, memory] });
        const parsed = parsePage(renderPageSection(page).split('\n'));
        expect(parsed.entries.map((e) => e.id)).toEqual([decision.id, memory.id]);
        expect(parsed.entries[1]?.text).toBe(page.entries[1]?.text);
        expect(parsed.index).toEqual([decision.id, memory.id]);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the newest entries of a full section and says how many are not shown', () => {
    const many = Array.from({ length: MAX_SECTION_ENTRIES + 3 }, (_, i) =>
      testMemory({
        kind: 'fact',
        content: `fact ${i}`,
        createdAt: `2026-02-01T00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(3, '0')}Z`,
      }),
    );
    const page = selectPage({ projectKey: PROJECT, memories: many });
    expect(page.entries).toHaveLength(MAX_SECTION_ENTRIES);
    expect(page.omitted.conventions).toBe(3);
    const text = renderPageSection(page);
    expect(text).toContain('_3 older entries not shown (`mnemo list`)._');
    expect(parsePage(text.split('\n')).entries).toHaveLength(MAX_SECTION_ENTRIES);
  });
});

describe('selectPage', () => {
  it('shows user memories and approved agent ones, and no other origin whatever its review state', () => {
    const candidates = TRUST_ORDER.flatMap((origin) =>
      (['none', 'pending', 'approved', 'rejected'] as const).map((quarantine) =>
        testMemory({ origin, quarantine, kind: 'decision', content: `${origin} ${quarantine}` }),
      ),
    );
    const page = selectPage({ projectKey: PROJECT, memories: candidates });
    expect(page.entries.map((e) => e.text).sort()).toEqual([
      'agent approved',
      'user approved',
      'user none',
    ]);
    expect(page.withheld).toHaveLength(candidates.length - 3);
  });

  it('withholds web-read, tainted, superseded, global, private, other-project and capture memories', () => {
    const bad = [
      testMemory({ sourceUrl: 'https://evil.example/page' }),
      testMemory({ tainted: true }),
      testMemory({ supersededBy: '01JFXA0000000000000000000Y' }),
      testMemory({ visibility: 'global' }),
      testMemory({ teamVisible: false }),
      testMemory({ projectKey: '/p/beta' }),
      testMemory({ kind: 'capture' }),
    ];
    const page = selectPage({ projectKey: PROJECT, memories: bad });
    expect(page.entries).toEqual([]);
    expect(
      page.withheld
        .map((w) => w.reasons)
        .flat()
        .sort(),
    ).toEqual([
      'global',
      'kind_not_on_page',
      'other_project',
      'private',
      'read_from_web',
      'superseded',
      'tainted',
    ]);
  });

  it('shows no checkpoint when the newest one may not be shown', () => {
    const untrusted = testMemory({ kind: 'checkpoint', origin: 'local_edit' });
    const page = selectPage({ projectKey: PROJECT, memories: [decision], checkpoint: untrusted });
    expect(page.entries.map((e) => e.memory.id)).toEqual([decision.id]);
    expect(renderPageSection(page)).toContain('### Last checkpoint\n\n_None yet._');
  });
});
