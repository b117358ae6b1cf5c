/**
 * The MCP server and the resident engine: `recall` runs in the engine (hybrid, with the embedder) when
 * one answers, and otherwise from the store in the server's own process, starting an engine in the
 * background for the next recall when `engine.autoStart` allows.
 */
import { describe, expect, it } from 'vitest';

import { pingEngine } from '../../src/engine/engine-client.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { startStdioMcp, textOf } from '../helpers/mcp-harness.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();
const engines = useEngines();

async function home(): Promise<TestHome> {
  const h = newHome();
  h.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
  engines.watch(h);
  const saved = await h.run(['remember', 'the staging database is called heliotrope']);
  expect(saved.code, saved.stderr).toBe(0);
  return h;
}

async function recallCount(h: TestHome): Promise<number> {
  const ping = await pingEngine({ home: h.home }, 2000);
  if (ping === undefined) throw new Error('no engine answered');
  return ping.recalls;
}

describe('MCP recall and the resident engine', () => {
  it('answers recall through a running engine', async () => {
    const h = await home();
    await engines.start(h);
    expect(await recallCount(h)).toBe(0);
    const mcp = await startStdioMcp(h);
    try {
      const result = await mcp.call('recall', { query: 'staging database' });
      expect(textOf(result)).toContain('> the staging database is called heliotrope');
    } finally {
      await mcp.close();
    }
    expect(await recallCount(h)).toBe(1);
  });

  it('answers from the store when no engine runs, and starts one for later when allowed', async () => {
    const h = await home();
    h.env['MNEMO_ENGINE_AUTOSTART'] = '1';
    expect(await pingEngine({ home: h.home }, 500)).toBeUndefined();
    const mcp = await startStdioMcp(h);
    try {
      const first = await mcp.call('recall', { query: 'staging database' });
      expect(textOf(first)).toContain('> the staging database is called heliotrope');
      await waitFor('the engine started in the background', () =>
        pingEngine({ home: h.home }, 500),
      );
      const second = await mcp.call('recall', { query: 'heliotrope' });
      expect(textOf(second)).toContain('heliotrope');
    } finally {
      await mcp.close();
    }
    expect(await recallCount(h)).toBe(1);
  });

  it('starts no engine when auto-start is off', async () => {
    const h = await home();
    const mcp = await startStdioMcp(h);
    try {
      expect(textOf(await mcp.call('recall', { query: 'staging' }))).toContain('heliotrope');
    } finally {
      await mcp.close();
    }
    expect(await pingEngine({ home: h.home }, 500)).toBeUndefined();
  });
});
