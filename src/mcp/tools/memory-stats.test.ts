import { describe, expect, it } from 'vitest';

import { seedMemory, textOf, useMcpHarness } from '../../../test/helpers/mcp-harness.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';

const connect = useMcpHarness();
const tempDir = useTempDirs();

describe('memory_stats tool', () => {
  it("counts this project's memories by kind and origin, and nothing of other projects", async () => {
    const h = await connect();
    const other = tempDir('mnemo-other-');
    await seedMemory(h.app, { content: 'a decision', projectKey: h.project, kind: 'decision' });
    const old = await seedMemory(h.app, {
      content: 'a note',
      projectKey: h.project,
      origin: 'agent',
    });
    await h.app.store.supersede(old.id, {
      content: 'a better note',
      projectKey: h.project,
      origin: 'agent',
    });
    await seedMemory(h.app, {
      content: 'held',
      projectKey: h.project,
      origin: 'network',
      quarantine: 'pending',
    });
    await seedMemory(h.app, { content: 'global one', projectKey: other, visibility: 'global' });
    await seedMemory(h.app, { content: 'theirs', projectKey: other });
    const result = await h.call('memory_stats');
    expect(result.structuredContent).toEqual({
      project: h.project,
      total: 3,
      global: 1,
      pending_review: 1,
      superseded: 1,
      by_kind: { decision: 1, note: 2 },
      by_origin: { user: 1, agent: 1, network: 1 },
    });
    expect(JSON.stringify(result)).not.toContain(other);
    expect(textOf(result)).toContain('3 active memories (1 replaced, 1 held for review)');
  });

  it('reports only the global count when no project resolves', async () => {
    const h = await connect({ roots: false, env: {}, cwd: '/nonexistent/mnemo-nowhere' });
    const result = await h.call('memory_stats');
    expect(result.structuredContent).toMatchObject({ project: null, total: 0, by_kind: {} });
    expect(textOf(result)).toContain('No project is open for this connection');
  });
});
