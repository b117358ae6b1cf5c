import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { MemoryKind } from '../memory.js';
import { type OriginClass, TRUST_ORDER, trustRank } from '../origin/origin-class.js';
import { buildCheckpoint, CHECKPOINT_CAPS, type CheckpointInput } from './build-checkpoint.js';
import type { CheckpointMemory } from './session-items.js';

const SESSION = '3b8e5c2d-7a14-4f0e-9c61-5d2a8e7f4b90';
const TAG = 'cmd:0123456789abcdef';

let seq = 0;
function memory(
  kind: MemoryKind,
  content: string,
  options: { origin?: OriginClass; tool?: string | null; tags?: string[]; minute?: number } = {},
): CheckpointMemory {
  seq += 1;
  const minute = options.minute ?? seq;
  return {
    id: `01J${String(seq).padStart(23, '0')}`,
    kind,
    origin: options.origin ?? 'local_edit',
    originTool: options.tool === undefined ? 'Edit' : options.tool,
    content,
    tags: options.tags ?? [],
    createdAt: new Date(Date.UTC(2026, 7, 20, 9, minute)).toISOString(),
  };
}

const edit = (path: string, minute?: number) =>
  memory('capture', `Edited ${path}: - old line / + new line (1→1 lines)`, { minute });
const failure = (command: string, error: string, minute?: number, tag = TAG) =>
  memory('error', `Command failed: ${command}\nExit code 1\n${error}`, {
    origin: 'local_exec',
    tool: 'Bash',
    tags: [tag],
    minute,
  });
const fix = (command: string, minute?: number, tag = TAG) =>
  memory('fix', `fixed: ${command} now passes`, {
    origin: 'local_exec',
    tool: 'Bash',
    tags: [tag],
    minute,
  });

function input(overrides: Partial<CheckpointInput>): CheckpointInput {
  return { sessionId: SESSION, event: 'pre-compact', memories: [], prompts: [], ...overrides };
}

describe('buildCheckpoint', () => {
  it('summarises goals, edited files, fixes, open failures, decisions and sources in a fixed layout', () => {
    const checkpoint = buildCheckpoint(
      input({
        detail: 'manual',
        prompts: ['Why does GET /orders return 500?', 'Also add a regression test.'],
        compactInstructions: 'keep the failing tests',
        memories: [
          edit('src/db/orders.sql.ts', 1),
          failure(
            'npm test',
            '  1 failing\n  GET /orders: error: column "status" does not exist',
            2,
          ),
          edit('src/db/orders.sql.ts', 3),
          fix('npm test', 4),
          edit('test/orders.test.ts', 5),
          failure('npm run lint', 'src/a.ts: 3 problems found, cannot continue', 6, 'cmd:lint'),
          memory('decision', 'Use a nullable status column\nuntil the backfill ran.', {
            origin: 'agent',
            tool: 'mcp:remember',
            minute: 7,
          }),
          memory('capture', 'Fetched https://node-postgres.com/features/queries:\npage text', {
            origin: 'network',
            tool: 'WebFetch',
            minute: 8,
          }),
        ],
      }),
    );
    expect(checkpoint?.content).toBe(
      [
        'Session checkpoint (pre-compact, manual)',
        `Session: ${SESSION}`,
        '',
        "Goals (the user's prompts, oldest first):",
        '- Why does GET /orders return 500?',
        '- Also add a regression test.',
        '',
        'Compaction request: keep the failing tests',
        '',
        'Files edited (2):',
        '- src/db/orders.sql.ts (2 edits)',
        '- test/orders.test.ts',
        '',
        'Fixed (failed, then passed):',
        '- npm test (was: GET /orders: error: column "status" does not exist)',
        '',
        'Still failing:',
        '- npm run lint (src/a.ts: 3 problems found, cannot continue)',
        '',
        'Decisions:',
        '- Use a nullable status column until the backfill ran.',
        '',
        'Consulted:',
        '- Fetched https://node-postgres.com/features/queries',
      ].join('\n'),
    );
    expect(checkpoint?.origin).toBe('network');
    expect(checkpoint?.sources).toEqual(['user', 'agent', 'local_edit', 'local_exec', 'network']);
    expect(checkpoint?.items).toBe(11);
  });

  it('takes the least trusted origin of everything it draws on', () => {
    const origins: OriginClass[] = ['user', 'local_edit', 'local_exec', 'agent_tainted'];
    const memories = origins.map((origin) => memory('decision', `decided ${origin}`, { origin }));
    expect(buildCheckpoint(input({ memories }))?.origin).toBe('agent_tainted');
    expect(buildCheckpoint(input({ memories: memories.slice(0, 3) }))?.origin).toBe('local_exec');
  });

  it('counts memories a cap left out of the text when choosing the origin', () => {
    const decisions = Array.from({ length: CHECKPOINT_CAPS.decisions }, (_, i) =>
      memory('decision', `decision ${i}`, { origin: 'user', minute: i }),
    );
    const hidden = memory('decision', 'the last, hidden decision', {
      origin: 'unknown',
      minute: 59,
    });
    const checkpoint = buildCheckpoint(input({ memories: [...decisions, hidden] }));
    expect(checkpoint?.content).not.toContain('hidden decision');
    expect(checkpoint?.content).toContain('- … and 1 more decision');
    expect(checkpoint?.origin).toBe('unknown');
  });

  it("is of origin user when it draws only on the user's own words", () => {
    const checkpoint = buildCheckpoint(input({ prompts: ['Ship the cart page today.'] }));
    expect(checkpoint).toMatchObject({ origin: 'user', sources: ['user'], items: 1 });
  });

  it('ignores kinds it does not summarise, for its text and for its origin', () => {
    const checkpoint = buildCheckpoint(
      input({
        prompts: ['goal'],
        memories: [
          memory('note', 'a note from a web page', { origin: 'network' }),
          memory('checkpoint', 'an earlier checkpoint', { origin: 'unknown' }),
        ],
      }),
    );
    expect(checkpoint?.origin).toBe('user');
    expect(checkpoint?.content).not.toMatch(/note from|earlier checkpoint/);
  });

  it('returns undefined when there is nothing to summarise', () => {
    expect(buildCheckpoint(input({ prompts: ['  ', ''] }))).toBeUndefined();
    expect(buildCheckpoint(input({ memories: [memory('note', 'n')] }))).toBeUndefined();
  });

  it('keeps the first prompt and the latest ones when there are more than the cap', () => {
    const prompts = Array.from({ length: 10 }, (_, i) => `prompt ${i}`);
    const content = buildCheckpoint(input({ prompts, promptsPartial: true }))?.content ?? '';
    expect(content).toContain('earlier ones were outside the part of the transcript read');
    expect(content.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- prompt 0',
      '- … 4 more prompts …',
      '- prompt 5',
      '- prompt 6',
      '- prompt 7',
      '- prompt 8',
      '- prompt 9',
    ]);
  });

  it('caps every section and puts each entry on one bounded line', () => {
    const edits = Array.from({ length: 30 }, (_, i) => edit(`src/file-${i}.ts`, i));
    const long = 'x'.repeat(5000);
    const content =
      buildCheckpoint(input({ prompts: [`${long}\n${long}`], memories: edits }))?.content ?? '';
    expect(content).toContain('Files edited (30):');
    expect(content).toContain('- … and 5 more files');
    expect(content).not.toContain('src/file-25.ts');
    expect(Math.max(...content.split('\n').map((line) => line.length))).toBeLessThanOrEqual(260);
  });

  it('does not list a failure that a later run of the same command fixed, but does list a relapse', () => {
    const fixed = buildCheckpoint(
      input({ memories: [failure('npm test', 'error: boom', 1), fix('npm test', 2)] }),
    );
    expect(fixed?.content).not.toContain('Still failing');
    const relapse = buildCheckpoint(
      input({
        memories: [
          failure('npm test', 'error: boom', 1),
          fix('npm test', 2),
          failure('npm test', 'error: boom again', 3),
        ],
      }),
    );
    expect(relapse?.content).toContain('Still failing:\n- npm test (error: boom again)');
  });

  it('cuts a multi-line command off the error exactly when the fix names it', () => {
    const command = "cat <<'EOF' | node -\nconsole.log(1)\nEOF";
    const content =
      buildCheckpoint(
        input({
          memories: [failure(command, 'TypeError: x is not a function', 1), fix(command, 2)],
        }),
      )?.content ?? '';
    expect(content).toContain(
      "- cat <<'EOF' | node - console.log(1) EOF (was: TypeError: x is not a function)",
    );
  });

  const anyOrigin = fc.constantFrom(...TRUST_ORDER);
  const anyMemory = fc
    .record({
      kind: fc.constantFrom<MemoryKind>('capture', 'error', 'fix', 'decision', 'note'),
      origin: anyOrigin,
      text: fc.string({ maxLength: 40 }),
      minute: fc.integer({ min: 0, max: 59 }),
      tool: fc.constantFrom('Edit', 'Write', 'Bash', 'WebFetch', null),
    })
    .map((m) =>
      memory(m.kind, m.kind === 'capture' ? `Edited ${m.text}: x` : m.text || 'x', {
        origin: m.origin,
        tool: m.tool,
        minute: m.minute,
        tags: m.kind === 'error' || m.kind === 'fix' ? [TAG] : [],
      }),
    );

  it('gives the same checkpoint for any order of the same inputs', () => {
    fc.assert(
      fc.property(
        fc.array(anyMemory, { maxLength: 20 }),
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 8 }),
        fc.func(fc.integer()),
        (memories, prompts, key) => {
          const shuffled = [...memories].sort((a, b) => key(a.id) - key(b.id));
          expect(buildCheckpoint(input({ memories: shuffled, prompts }))).toEqual(
            buildCheckpoint(input({ memories, prompts })),
          );
        },
      ),
    );
  });

  it('is never more trusted than any memory or prompt it summarises', () => {
    fc.assert(
      fc.property(fc.array(anyMemory, { maxLength: 20 }), fc.boolean(), (memories, withPrompt) => {
        const checkpoint = buildCheckpoint(
          input({ memories, prompts: withPrompt ? ['the goal'] : [] }),
        );
        if (checkpoint === undefined) return;
        for (const m of memories.filter((x) => x.kind !== 'note')) {
          expect(trustRank(checkpoint.origin)).toBeGreaterThanOrEqual(
            trustRank(m.origin as OriginClass),
          );
        }
      }),
    );
  });
});
