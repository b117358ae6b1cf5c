/**
 * `reverify_memory`, `recall` and `explain_memory` over anchored memories, through a real MCP client on
 * a project that is a real git repository. The taint of the calling session decides who may re-verify.
 */
import { describe, expect, it } from 'vitest';

import { gitRepoAt } from '../../../test/helpers/git-repo.js';
import {
  claimSession,
  type McpHarness,
  textOf,
  useMcpHarness,
} from '../../../test/helpers/mcp-harness.js';
import { reverifyClaimText } from '../../core/anchors/reverify-claim.js';
import type { Memory } from '../../core/memory.js';
import { resolveProjectKey } from '../../project/project-key.js';
import { writeMemory } from '../../write/write-memory.js';
import { writeDepsFrom } from '../../write/write-policy.js';

const connect = useMcpHarness();

async function staleUserMemory(): Promise<{ h: McpHarness; memory: Memory }> {
  const h = await connect();
  const repo = gitRepoAt(h.project);
  repo.write('src/db.ts', 'export function openPool() {}\n');
  repo.commit('initial');
  const outcome = await writeMemory(writeDepsFrom(h.app), {
    envelope: { channel: 'cli' },
    content: 'The connection pool is opened by openPool in src/db.ts.',
    projectKey: resolveProjectKey(h.project),
    workingDir: h.project,
  });
  if (outcome.decision !== 'store') throw new Error('not stored');
  repo.write('src/db.ts', 'export function openPool(size) {}\n');
  repo.commit('pool size');
  return { h, memory: outcome.memory };
}

describe('reverify_memory tool', () => {
  it('lets a clean session re-verify a stale memory, audited with its session and origin', async () => {
    const { h, memory } = await staleUserMemory();
    await claimSession(h.app, reverifyClaimText(memory.id), 'session-clean');
    const result = await h.call('reverify_memory', { id: memory.id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      id: memory.id,
      origin: 'agent',
      before: { status: 'stale', label: 'cites src/db.ts, changed in the last commit' },
      anchors: [{ path: 'src/db.ts', kind: 'file' }],
    });
    expect(textOf(result)).toBe(
      `Re-verified memory ${memory.id} (it was stale); anchored to 1 file as they are now.`,
    );
    expect((await h.app.store.auditTrail(memory.id)).at(-1)).toMatchObject({
      action: 'reverify',
      detail: { actor: 'mcp:reverify_memory', origin: 'agent', sessionId: 'session-clean' },
    });
    const explained = await h.call('explain_memory', { id: memory.id });
    expect(explained.structuredContent).toMatchObject({
      anchors: { status: 'fresh', how: 'reverify' },
    });
  });

  it('refuses a tainted session and a call no hook linked to a session, and changes nothing', async () => {
    const { h, memory } = await staleUserMemory();
    const sets = await h.app.store.getAnchorSets([memory.id]);
    const unlinked = await h.call('reverify_memory', { id: memory.id });
    expect(unlinked.isError).toBe(true);
    expect(textOf(unlinked)).toContain('cannot vouch for memory');
    await claimSession(h.app, reverifyClaimText(memory.id), 'session-web', {
      origin: 'network',
      toolName: 'WebFetch',
    });
    const tainted = await h.call('reverify_memory', { id: memory.id });
    expect(tainted.isError).toBe(true);
    expect(textOf(tainted)).toContain(`mnemo reverify ${memory.id}`);
    expect(await h.app.store.getAnchorSets([memory.id])).toEqual(sets);
    expect((await h.app.store.auditTrail(memory.id)).map((e) => e.action)).not.toContain(
      'reverify',
    );
  });
});

describe('recall and explain_memory of a stale memory', () => {
  it('flags it stale with the note inside the frame, and explains its anchors', async () => {
    const { h, memory } = await staleUserMemory();
    const recall = await h.call('recall', { query: 'connection pool openPool' });
    const text = textOf(recall);
    expect(text).toMatch(
      new RegExp(`id=${memory.id} .* · stale · cites src/db\\.ts, changed in the last commit`),
    );
    expect(
      (recall.structuredContent as { memories: { id: string; flags: string[]; note?: string }[] })
        .memories[0],
    ).toMatchObject({
      id: memory.id,
      flags: expect.arrayContaining(['stale']) as unknown,
      note: 'cites src/db.ts, changed in the last commit',
    });
    const explained = await h.call('explain_memory', { id: memory.id });
    expect(explained.structuredContent).toMatchObject({
      injection: { eligible: true },
      anchors: {
        status: 'stale',
        how: 'write',
        files: [{ path: 'src/db.ts', kind: 'file', state: 'changed' }],
      },
    });
    // The label names paths: outside the frame the text only says that the header has it.
    const outside = textOf(explained).split('\n').slice(-6).join('\n');
    expect(outside).toContain('Stale: a file it cites changed');
  });
});
