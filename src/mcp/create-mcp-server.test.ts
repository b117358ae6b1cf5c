import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { seedMemory, textOf, useMcpHarness } from '../../test/helpers/mcp-harness.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { MAX_TOOL_INPUT_ELEMENTS } from './create-mcp-server.js';
import { defineTool } from './tool.js';
import { allTools } from './tools/all-tools.js';

const connect = useMcpHarness();
const tempDir = useTempDirs();

interface RecallOut {
  project: string | null;
  memories: { id: string }[];
}

describe('createMcpServer', () => {
  it('lists the tools with their names, descriptions and schemas unchanged (public API and prompt text)', async () => {
    const h = await connect();
    const { tools } = await h.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(allTools.map((tool) => tool.name));
    expect(tools).toMatchSnapshot();
  });

  it("exposes exactly the issue's tools, and no way for the model to approve a quarantined memory", () => {
    expect(allTools.map((tool) => tool.name)).toEqual([
      'remember',
      'recall',
      'get_memory',
      'forget',
      'supersede_memory',
      'list_memories',
      'pin_memory',
      'checkpoint',
      'memory_stats',
      'explain_memory',
      'reverify_memory',
      'update_project_page',
      'review_memory',
    ]);
    // The one review tool asks the client's user (elicitation); its arguments only pick the memory.
    const review = allTools.filter((tool) => /approv|quarantin|review/i.test(tool.name));
    expect(review.map((tool) => tool.name)).toEqual(['review_memory']);
    expect(Object.keys(review[0]?.input.shape ?? {})).toEqual(['id']);
  });

  it('marks read tools read-only and forget destructive', () => {
    const hints = Object.fromEntries(
      allTools.map((tool) => [
        tool.name,
        [tool.annotations.readOnlyHint, tool.annotations.destructiveHint],
      ]),
    );
    for (const name of [
      'recall',
      'get_memory',
      'list_memories',
      'memory_stats',
      'explain_memory',
    ]) {
      expect(hints[name]?.[0]).toBe(true);
    }
    expect(hints['forget']).toEqual([false, true]);
    expect(hints['remember']).toEqual([false, false]);
  });

  it('names every tool verb_noun in snake_case and writes each description as a prompt', () => {
    for (const tool of allTools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.description).toContain('Use when');
      expect(tool.description).toContain('Do not use when');
    }
  });

  it("takes the project from the client's first root", async () => {
    const h = await connect();
    const other = tempDir('mnemo-other-');
    const mine = await seedMemory(h.app, { content: 'tabs not spaces', projectKey: h.project });
    await seedMemory(h.app, { content: 'tabs everywhere', projectKey: other });
    const result = await h.call('recall', { query: 'tabs' });
    const out = result.structuredContent as unknown as RecallOut;
    expect(out.project).toBe(h.project);
    expect(out.memories.map((m) => m.id)).toEqual([mine.id]);
  });

  it('switches project when the client announces new roots', async () => {
    const h = await connect();
    const other = tempDir('mnemo-other-');
    await seedMemory(h.app, { content: 'tabs not spaces', projectKey: h.project });
    const theirs = await seedMemory(h.app, { content: 'tabs everywhere', projectKey: other });
    await h.setRoots([other, h.project]);
    const out = (await h.call('recall', { query: 'tabs' }))
      .structuredContent as unknown as RecallOut;
    expect(out.project).toBe(other);
    expect(out.memories.map((m) => m.id)).toEqual([theirs.id]);
  });

  it('falls back to CLAUDE_PROJECT_DIR, then the working directory, when the client has no roots', async () => {
    const declared = tempDir('mnemo-declared-');
    const cwd = tempDir('mnemo-cwd-');
    const withEnv = await connect({ roots: false, env: { CLAUDE_PROJECT_DIR: declared }, cwd });
    const a = (await withEnv.call('memory_stats')).structuredContent as { project: string };
    expect(a.project).toBe(declared);
    const withCwd = await connect({ roots: false, env: {}, cwd });
    const b = (await withCwd.call('memory_stats')).structuredContent as { project: string };
    expect(b.project).toBe(cwd);
  });

  it('falls back to the environment when the client fails to list its roots', async () => {
    const h = await connect();
    h.client.setRequestHandler(ListRootsRequestSchema, () => {
      throw new Error('roots unavailable');
    });
    await h.client.sendRootsListChanged();
    const out = (await h.call('memory_stats')).structuredContent as { project: string };
    expect(out.project).toBe(h.app.config.home);
    expect(readFileSync(h.app.config.logFile, 'utf8')).toContain('mcp roots/list failed');
  });

  it('maps a git worktree subdirectory root to the repository root, as the hooks do', async () => {
    const h = await connect();
    const repo = tempDir('mnemo-repo-');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    await h.setRoots([join(repo, 'src', 'deep')]);
    const out = (await h.call('memory_stats')).structuredContent as { project: string };
    expect(out.project).toBe(repo);
  });

  it('shows only global memories when no project resolves', async () => {
    const h = await connect({ roots: false, env: {}, cwd: '/nonexistent/mnemo-nowhere' });
    await seedMemory(h.app, {
      content: 'global tabs rule',
      projectKey: h.project,
      visibility: 'global',
    });
    await seedMemory(h.app, { content: 'project tabs rule', projectKey: h.project });
    const out = (await h.call('recall', { query: 'tabs' }))
      .structuredContent as unknown as RecallOut;
    expect(out.project).toBeNull();
    expect(out.memories).toHaveLength(1);
  });

  it('answers an unknown tool with an error result', async () => {
    const h = await connect();
    const result = await h.call('approve_memory', { id: '01JD5Y8Q3X9V7M2K4N6P8R0T2W' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Tool approve_memory not found');
  });

  it('refuses arguments of the wrong type through the SDK validation, naming the field', async () => {
    const h = await connect();
    const result = await h.call('recall', { query: 42 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Input validation error');
    expect(textOf(result)).toContain('query');
  });

  it('refuses arguments with more elements than the limit', async () => {
    const h = await connect();
    const kinds = Array.from({ length: MAX_TOOL_INPUT_ELEMENTS + 1 }, () => 'note');
    const result = await h.call('recall', { query: 'x', kinds });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('maximum');
  });

  it('turns a fault inside a tool into a generic error result, not a bad-input message', async () => {
    const broken = defineTool({
      name: 'broken_tool',
      title: 'Broken',
      description: 'Fails.',
      input: z.object({}),
      output: z.object({}),
      annotations: { readOnlyHint: true },
      run: () => Promise.reject(new TypeError('disk on fire')),
    });
    const h = await connect({ server: { tools: [broken] } });
    const result = await h.call('broken_tool');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('internal error while running `broken_tool`');
    expect(textOf(result)).not.toContain('disk on fire');
    expect(readFileSync(h.app.config.logFile, 'utf8')).toContain('disk on fire');
  });
});
