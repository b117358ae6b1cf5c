/**
 * Fuzz: generated tool arguments over the real stdio MCP server of the built binary (threat model W4,
 * W9). Each call must end as a tool result (an `isError` one for bad input) or a JSON-RPC protocol
 * error, never a crash, a non-protocol line on stdout or a hung server; and whatever the calls managed to
 * store must obey the origin rules: no hook linked any call to a session, so every memory they wrote is
 * `agent_tainted`, held for review, unpinned and marked as an MCP write, whatever the arguments claimed.
 * Seeded (fast-check `sample`); the seed is printed with every failure (replay: MNEMO_TEST_SEED).
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { startStdioMcp } from '../helpers/mcp-harness.js';
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { testSeed } from '../helpers/seeded.js';
import { storeState } from '../helpers/store-state.js';

const newHome = useTestHomes();

const CALLS = 3000;

/** Values of every JSON type, plus the strings and numbers most likely to hit an edge. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'user',
    'global',
    'pinned',
    '*',
    '%',
    '../..',
    '01JFX000',
    '\u0000',
    'a'.repeat(70_000),
  ),
  fc.constantFrom(0, -1, 1e308, Number.MAX_SAFE_INTEGER, 0.5, -0),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.json({ maxDepth: 4 }).map((text) => JSON.parse(text) as unknown),
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 30 }),
);

/** Arguments for `tool`: its own property names (and a few hostile ones) with values of any type. */
function argsFor(properties: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const names = fc.constantFrom(
    ...properties,
    'origin',
    'origin_tool',
    'force',
    'write_class',
    'pinned',
    'global',
    '__proto__',
    'constructor',
  );
  return fc.dictionary(names, value, { maxKeys: 8 });
}

describe('fuzzed MCP tool arguments over the stdio server', () => {
  it(`${CALLS} generated calls: a result or a protocol error each, a live server, and origin rules kept`, async () => {
    const seed = testSeed();
    const t = newHome();
    t.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
    const mcp = await startStdioMcp(t);
    const failures: string[] = [];
    const outcomes = { ok: 0, isError: 0, protocol: 0 };
    try {
      const { tools } = await mcp.client.listTools();
      const anyTool = fc.oneof(
        ...tools.map((tool) =>
          argsFor(Object.keys(tool.inputSchema.properties ?? {})).map((args) => ({
            name: tool.name,
            args,
          })),
        ),
      );
      // Writes that get through validation, with hostile extras, so the origin check below has rows.
      const storing = fc
        .tuple(fc.string({ minLength: 12, maxLength: 400 }), argsFor(['kind', 'tags', 'project']))
        .map(([text, extra]) => ({
          name: 'remember',
          args: { ...extra, content: `fuzz note ${text}` },
        }));
      const calls = fc.sample(
        fc.oneof({ arbitrary: anyTool, weight: 9 }, { arbitrary: storing, weight: 1 }),
        { seed, numRuns: CALLS },
      );
      for (const [index, { name, args }] of calls.entries()) {
        try {
          const result = await mcp.call(name, args);
          if (result.isError === true) outcomes.isError += 1;
          else outcomes.ok += 1;
        } catch (error) {
          if (error instanceof McpError) outcomes.protocol += 1;
          else failures.push(`seed ${seed} call ${index} ${name}: ${String(error)}`);
        }
      }
      // Still serving after all of it, and nothing but protocol on its stdout.
      expect((await mcp.client.listTools()).tools.length, `seed ${seed}`).toBe(tools.length);
      expect(mcp.errors.map(String), `seed ${seed}`).toEqual([]);
    } finally {
      await mcp.close();
    }
    console.log(`mcp fuzz seed ${seed}: ${JSON.stringify(outcomes)}`);
    expect(failures.slice(0, 20), `seed ${seed}`).toEqual([]);
    const state = await storeState(t.home);
    expect(state.problems, `seed ${seed}`).toEqual([]);
    const violations = state.memories
      .filter(
        (m) =>
          m.origin !== 'agent_tainted' ||
          m.quarantine !== 'pending' ||
          m.pinned ||
          !(m.originTool ?? '').startsWith('mcp:'),
      )
      .map((m) => ({
        id: m.id,
        origin: m.origin,
        quarantine: m.quarantine,
        pinned: m.pinned,
        tool: m.originTool,
      }));
    console.log(`mcp fuzz seed ${seed}: ${state.memories.length} memories stored`);
    expect(state.memories.length, `seed ${seed}`).toBeGreaterThan(0);
    expect(violations, `seed ${seed}`).toEqual([]);
  }, 600_000);
});
