import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  classifyOrigin,
  EMPTY_ORIGIN_CONFIG,
  explainOrigin,
  isOwnTool,
  type OriginConfig,
  type OriginEnvelope,
} from './classify-origin.js';
import { isOriginClass, TRUST_ORDER } from './origin-class.js';
import { KNOWN_BUILTIN_TOOLS, normaliseToolName, parseToolName } from './tool-names.js';

const tool = (toolName: string): OriginEnvelope => ({ channel: 'tool', toolName });
const classify = (toolName: string, config: OriginConfig = EMPTY_ORIGIN_CONFIG) =>
  classifyOrigin(tool(toolName), config);

describe('classifyOrigin: channels', () => {
  it('classes the CLI, the web UI and typed prompts as user', () => {
    expect(classifyOrigin({ channel: 'cli' }, EMPTY_ORIGIN_CONFIG)).toBe('user');
    expect(classifyOrigin({ channel: 'web' }, EMPTY_ORIGIN_CONFIG)).toBe('user');
    expect(classifyOrigin({ channel: 'user_prompt' }, EMPTY_ORIGIN_CONFIG)).toBe('user');
  });

  it('classes an MCP remember by session taint (W5)', () => {
    expect(classifyOrigin({ channel: 'mcp_remember', tainted: false }, EMPTY_ORIGIN_CONFIG)).toBe(
      'agent',
    );
    expect(classifyOrigin({ channel: 'mcp_remember', tainted: true }, EMPTY_ORIGIN_CONFIG)).toBe(
      'agent_tainted',
    );
  });

  it('treats a remember with a missing or malformed taint flag as tainted', () => {
    for (const tainted of [undefined, 'false', 0, null]) {
      const envelope = { channel: 'mcp_remember', tainted } as unknown as OriginEnvelope;
      expect(classifyOrigin(envelope, EMPTY_ORIGIN_CONFIG)).toBe('agent_tainted');
    }
  });

  it('classes a derived memory as the least trusted of its sources (W10)', () => {
    const derived = (sources: unknown) =>
      explainOrigin(
        { channel: 'derived', sources } as unknown as OriginEnvelope,
        EMPTY_ORIGIN_CONFIG,
      );
    expect(derived(['user', 'local_edit', 'agent'])).toEqual({
      origin: 'local_edit',
      reason: 'derived_least_trusted',
    });
    expect(derived(['user'])).toEqual({ origin: 'user', reason: 'derived_least_trusted' });
    expect(derived(['user', 'network']).origin).toBe('network');
    // No sources, or a source outside the vocabulary, vouches for nothing.
    expect(derived([]).origin).toBe('unknown');
    expect(derived(['user', 'admin']).origin).toBe('unknown');
    expect(derived('user')).toEqual({ origin: 'unknown', reason: 'invalid_envelope' });
  });

  it('classes malformed envelopes as unknown', () => {
    for (const envelope of [
      null,
      undefined,
      {},
      { channel: 'admin' },
      { channel: 'tool' },
      'cli',
    ]) {
      expect(explainOrigin(envelope as unknown as OriginEnvelope, EMPTY_ORIGIN_CONFIG)).toEqual({
        origin: 'unknown',
        reason: 'invalid_envelope',
      });
    }
  });
});

describe('classifyOrigin: built-in tools', () => {
  it('classes the issue examples', () => {
    expect(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].map((n) => classify(n))).toEqual(
      Array(4).fill('local_edit'),
    );
    expect(['Read', 'Grep', 'Glob', 'LS'].map((n) => classify(n))).toEqual(
      Array(4).fill('local_read'),
    );
    expect(classify('Bash')).toBe('local_exec');
    expect(classify('WebFetch')).toBe('network');
    expect(classify('WebSearch')).toBe('network');
  });

  it('classes sub-agent output as unknown', () => {
    expect(classify('Agent')).toBe('unknown');
    expect(classify('Task')).toBe('unknown');
  });

  it('classes empty and unrecognised names as unknown (W3-rename)', () => {
    for (const name of [
      '',
      '   ',
      'WebRead',
      'web_read',
      'Fetch',
      'Browser',
      'EditFile',
      'bash2',
    ]) {
      expect(classify(name)).toBe('unknown');
    }
  });

  it('refuses look-alike names instead of guessing', () => {
    for (const name of [
      'Ｅｄｉｔ',
      'Ed\u200Bit',
      'Ed\uFEFFit',
      'Web\u00A0Fetch',
      'Еdit',
      'Edit\u0000',
      'Web.Fetch',
      'Web/Fetch',
    ]) {
      expect(classify(name)).toBe('unknown');
    }
  });
});

describe('normaliseToolName', () => {
  it('ignores case, whitespace, hyphens and underscores', () => {
    const spellings = [
      'WebFetch',
      'web_fetch',
      ' webfetch ',
      'WEB-FETCH',
      'Web Fetch',
      'web__fetch',
    ];
    expect(new Set(spellings.map(normaliseToolName))).toEqual(new Set(['webfetch']));
    for (const name of spellings) expect(classify(name)).toBe('network');
  });

  it('keeps the MCP separators and normalises each segment', () => {
    expect(normaliseToolName(' MCP__My-Server__Do_Thing ')).toBe('mcp__myserver__dothing');
    expect(parseToolName('mcp__plugin_acme_fetch__get')).toEqual({
      kind: 'mcp',
      key: 'mcp__pluginacmefetch__get',
      server: 'pluginacmefetch',
      tool: 'get',
    });
  });

  it('rejects malformed MCP names', () => {
    for (const name of ['mcp__', 'mcp____x', 'mcp__server', 'mcp__server__']) {
      expect(parseToolName(name).kind).toBe('invalid');
    }
  });

  it('gives the same class to random case/separator variants of every known name', () => {
    const variant = fc
      .tuple(
        fc.constantFrom(...KNOWN_BUILTIN_TOOLS),
        fc.infiniteStream(fc.integer({ min: 0, max: 5 })),
      )
      .map(([name, choices]) => {
        const it = choices[Symbol.iterator]();
        const styled = [...name]
          .map((ch) => {
            const choice = it.next().value as number;
            const cased = choice % 2 === 0 ? ch.toUpperCase() : ch.toLowerCase();
            return choice === 3 ? `${cased}_` : choice === 4 ? `${cased}-` : cased;
          })
          .join('');
        return { name, styled: ` ${styled}\t` };
      });
    fc.assert(
      fc.property(variant, ({ name, styled }) => {
        expect(classify(styled)).toBe(classify(name));
      }),
    );
  });

  it('gives no two known built-ins the same normalised key', () => {
    const keys = KNOWN_BUILTIN_TOOLS.map(normaliseToolName);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('classifyOrigin: MCP tools', () => {
  const config: OriginConfig = {
    mcpTools: {
      mcp__fetch__fetch: 'network',
      'mcp__playwright__*': 'network',
      mcp__fs__read_file: 'local_read',
      'mcp__fs__*': 'local_edit',
    },
  };

  it('classes every undeclared MCP tool as unknown (W3)', () => {
    expect(classify('mcp__fetch__fetch')).toBe('unknown');
    expect(classify('mcp__playwright__browser_navigate')).toBe('unknown');
    expect(classify('mcp__memory__create_entities', config)).toBe('unknown');
  });

  it('classes declared tools and server wildcards, exact entries first', () => {
    expect(explainOrigin(tool('mcp__fetch__fetch'), config)).toEqual({
      origin: 'network',
      reason: 'declared_mcp_tool',
    });
    expect(explainOrigin(tool('mcp__playwright__browser_navigate'), config)).toEqual({
      origin: 'network',
      reason: 'declared_mcp_server',
    });
    expect(classify('mcp__fs__read_file', config)).toBe('local_read');
    expect(classify('mcp__fs__write_file', config)).toBe('local_edit');
  });

  it('matches declarations whatever their spelling', () => {
    expect(classify('MCP__Fetch__Fetch', config)).toBe('network');
    expect(classify('mcp__fs__read-file', config)).toBe('local_read');
  });

  it('refuses a declared class outside the declarable set', () => {
    for (const declared of ['user', 'agent', 'root', 42]) {
      const forged = { mcpTools: { mcp__x__y: declared } } as unknown as OriginConfig;
      expect(classify('mcp__x__y', forged)).toBe('unknown');
    }
  });

  it('keeps the less trusted class when two spellings of one key disagree', () => {
    const clash: OriginConfig = { mcpTools: { mcp__a_b__x: 'local_read', mcp__ab__x: 'network' } };
    expect(classify('mcp__ab__x', clash)).toBe('network');
  });

  it('treats our own server as no content source, whatever the config says', () => {
    const loud: OriginConfig = { mcpTools: { 'mcp__mnemo__*': 'local_edit' } };
    for (const name of ['mcp__mnemo__recall', 'mcp__plugin_mnemo_mnemo__remember']) {
      expect(isOwnTool(name)).toBe(true);
      expect(explainOrigin(tool(name), loud)).toEqual({ origin: 'unknown', reason: 'own_server' });
    }
    expect(isOwnTool('mcp__mnemonic__recall')).toBe(false);
    expect(isOwnTool('mcp__work__x', { ownServers: ['work'] })).toBe(true);
  });
});

describe('classifyOrigin: properties', () => {
  const envelopes: fc.Arbitrary<OriginEnvelope> = fc.oneof(
    fc.constant<OriginEnvelope>({ channel: 'cli' }),
    fc.constant<OriginEnvelope>({ channel: 'web' }),
    fc.constant<OriginEnvelope>({ channel: 'user_prompt' }),
    fc.boolean().map((tainted): OriginEnvelope => ({ channel: 'mcp_remember', tainted })),
    fc
      .oneof(fc.constantFrom(...KNOWN_BUILTIN_TOOLS, 'mcp__fetch__fetch'), fc.string())
      .map((toolName): OriginEnvelope => ({ channel: 'tool', toolName })),
  );

  it('always returns a class in the vocabulary, for any input', () => {
    fc.assert(
      fc.property(fc.oneof(envelopes, fc.anything()), (envelope) => {
        const origin = classifyOrigin(envelope as OriginEnvelope, EMPTY_ORIGIN_CONFIG);
        expect(isOriginClass(origin)).toBe(true);
      }),
    );
  });

  it('does not change with any payload carried next to the envelope (W4)', () => {
    const spoof = fc.record({
      tool_name: fc.constantFrom('Edit', 'Write', 'user'),
      origin: fc.constantFrom(...TRUST_ORDER),
      origin_tool: fc.constant('Edit'),
      write_class: fc.constant('deliberate'),
      force: fc.boolean(),
      tool_response: fc.anything(),
      content: fc.string(),
    });
    fc.assert(
      fc.property(envelopes, spoof, (envelope, payload) => {
        const carried = { ...payload, ...envelope } as OriginEnvelope;
        expect(classifyOrigin(carried, EMPTY_ORIGIN_CONFIG)).toBe(
          classifyOrigin(envelope, EMPTY_ORIGIN_CONFIG),
        );
      }),
    );
  });
});
