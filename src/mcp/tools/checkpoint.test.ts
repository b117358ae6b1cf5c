import { describe, expect, it } from 'vitest';

import { claimSession, textOf, useMcpHarness } from '../../../test/helpers/mcp-harness.js';

const connect = useMcpHarness();

describe('checkpoint tool', () => {
  it("saves task state as a checkpoint memory with the writer's origin", async () => {
    const h = await connect();
    const content =
      'Goal: migrate auth. Done: tokens table. Next: refresh flow. Files: src/auth/*.ts';
    await claimSession(h.app, content, 'session-clean');
    const result = await h.call('checkpoint', {
      content,
      tags: ['auth'],
      write_class: 'deliberate',
    });
    expect(result.isError).toBeFalsy();
    const id = (result.structuredContent as { id: string }).id;
    expect(await h.app.store.getMemory(id)).toMatchObject({
      kind: 'checkpoint',
      origin: 'agent',
      tags: ['auth'],
      originTool: 'mcp:checkpoint',
    });
    expect(textOf(result)).toContain(`Checkpoint saved as memory ${id} (origin agent).`);
  });

  it('holds an unlinked checkpoint for review (fails closed)', async () => {
    const h = await connect();
    const result = await h.call('checkpoint', { content: 'Next: run the e2e suite' });
    expect(result.structuredContent).toMatchObject({
      origin: 'agent_tainted',
      quarantine: 'pending',
    });
  });

  it('refuses an empty checkpoint', async () => {
    const h = await connect();
    const result = await h.call('checkpoint', { content: '' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Content is empty');
  });
});
