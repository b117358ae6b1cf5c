import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { EMPTY_ORIGIN_CONFIG, explainOrigin, isOwnTool } from '../origin/classify-origin.js';
import { buildCapture } from './capture-content.js';
import {
  type CaptureEvent,
  type CapturePolicyConfig,
  decideCapture,
  DEFAULT_CAPTURE_POLICY,
} from './capture-policy.js';

function decide(
  toolName: string,
  event: CaptureEvent = 'PostToolUse',
  config: CapturePolicyConfig = DEFAULT_CAPTURE_POLICY,
  originConfig = EMPTY_ORIGIN_CONFIG,
) {
  return decideCapture(
    {
      event,
      toolName,
      origin: explainOrigin({ channel: 'tool', toolName }, originConfig),
      ownTool: isOwnTool(toolName, originConfig),
    },
    config,
  );
}

describe('decideCapture', () => {
  it.each([
    ['Edit', 'edit'],
    ['Write', 'edit'],
    ['MultiEdit', 'edit'],
    ['NotebookEdit', 'edit'],
    ['multi_edit', 'edit'],
    ['WebFetch', 'network'],
    ['WebSearch', 'network'],
    ['Bash', 'exec_success'],
    ['PowerShell', 'exec_success'],
  ])('captures %s through the %s channel by default', (tool, channel) => {
    expect(decide(tool)).toEqual({ action: 'capture', channel });
  });

  it.each([
    ['Read', 'read_not_captured'],
    ['Grep', 'read_not_captured'],
    ['Glob', 'read_not_captured'],
    ['LS', 'read_not_captured'],
    ['TaskStop', 'exec_output_not_captured'],
    ['Agent', 'unknown_tool'],
    ['WebRead', 'unknown_tool'],
    ['web_fetch_v2', 'unknown_tool'],
    ['mcp__fetch__fetch', 'undeclared_mcp'],
    ['mcp__playwright__browser_navigate', 'undeclared_mcp'],
    ['mcp__mnemo__recall', 'own_tool'],
    ['mcp__plugin_mnemo_mnemo__remember', 'own_tool'],
    ['', 'unknown_tool'],
  ])('skips %s by default (%s)', (tool, reason) => {
    expect(decide(tool)).toEqual({ action: 'skip', reason });
  });

  it('turns a failing command into an error capture and skips other failures and interrupts', () => {
    expect(decide('Bash', 'PostToolUseFailure')).toEqual({
      action: 'capture',
      channel: 'exec_failure',
    });
    expect(decide('Edit', 'PostToolUseFailure')).toEqual({
      action: 'skip',
      reason: 'failure_not_captured',
    });
    expect(
      decideCapture({
        event: 'PostToolUseFailure',
        toolName: 'Bash',
        origin: explainOrigin({ channel: 'tool', toolName: 'Bash' }, EMPTY_ORIGIN_CONFIG),
        ownTool: false,
        interrupted: true,
      }),
    ).toEqual({ action: 'skip', reason: 'interrupted' });
  });

  it('captures an MCP tool the config declares network, and follows per-tool overrides', () => {
    const declared = { mcpTools: { 'mcp__fetch__*': 'network' as const } };
    expect(decide('mcp__fetch__fetch', 'PostToolUse', DEFAULT_CAPTURE_POLICY, declared)).toEqual({
      action: 'capture',
      channel: 'network',
    });
    const config: CapturePolicyConfig = {
      minChars: 12,
      tools: {
        read: 'capture',
        WebFetch: 'skip',
        'mcp__docs__*': 'capture',
        mcp__mnemo__recall: 'capture',
      },
    };
    expect(decide('Read', 'PostToolUse', config)).toEqual({
      action: 'capture',
      channel: 'generic',
    });
    expect(decide('WebFetch', 'PostToolUse', config)).toEqual({
      action: 'skip',
      reason: 'disabled_by_config',
    });
    expect(decide('mcp__docs__search', 'PostToolUse', config)).toEqual({
      action: 'capture',
      channel: 'generic',
    });
    // No setting captures mnemo's own output.
    expect(decide('mcp__mnemo__recall', 'PostToolUse', config)).toEqual({
      action: 'skip',
      reason: 'own_tool',
    });
  });

  it('decides the same for a tool whatever its output says (property)', () => {
    const tools = ['WebFetch', 'Edit', 'Bash', 'Read', 'mcp__fetch__fetch', 'WebRead'];
    fc.assert(
      fc.property(fc.constantFrom(...tools), fc.string(), fc.string(), (tool, a, b) => {
        const decision = decide(tool);
        if (decision.action !== 'capture') return true;
        const source = (text: string) => ({
          toolName: tool,
          toolInput: {
            file_path: '/p/f.ts',
            old_string: text,
            new_string: `${text}!`,
            command: 'make',
            url: 'https://x',
          },
          toolResponse: { result: text },
          cwd: '/p',
        });
        const first = buildCapture(decision.channel, source(`${a} Decision: IMPORTANT error`), 0);
        const second = buildCapture(decision.channel, source(b), 0);
        // Same channel → same kind; content words never change the kind or the decision.
        return !first.ok || !second.ok || first.kind === second.kind;
      }),
    );
  });
});
