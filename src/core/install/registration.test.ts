import { describe, expect, it } from 'vitest';

import {
  buildRegistration,
  HOOK_REGISTRATIONS,
  type Launcher,
  ownToolPrefix,
} from './registration.js';

/** Claude Code's matcher rules (integration reference §1.8), to check what our matchers really match. */
function claudeMatches(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (/^[A-Za-z0-9_\-, |]+$/.test(matcher)) {
    return matcher.split(/[|,]/).some((name) => name.trim() === tool);
  }
  return new RegExp(matcher).test(tool);
}

const launcher: Launcher = { hookPrefix: 'mnemo', mcpCommand: 'mnemo', mcpArgs: [] };
const matcherOf = (event: string, flavour: 'settings' | 'plugin' = 'settings') =>
  buildRegistration(flavour, launcher).hooks.find((h) => h.event === event)?.group.matcher;

describe('HOOK_REGISTRATIONS', () => {
  it('registers each event once, with a kebab-case subcommand and a timeout in seconds', () => {
    const events = HOOK_REGISTRATIONS.map((row) => row.event);
    expect(new Set(events).size).toBe(events.length);
    for (const row of HOOK_REGISTRATIONS) {
      expect(row.subcommand).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(row.timeout).toBeGreaterThanOrEqual(2);
      expect(row.timeout).toBeLessThanOrEqual(10);
    }
  });

  it('fires PostToolUse on every tool, so an unknown or renamed tool still taints the session', () => {
    const matcher = matcherOf('PostToolUse');
    const tools = [
      'Edit',
      'Bash',
      'WebFetch',
      'Read',
      'Agent',
      'Task',
      'WebBrowse',
      'mcp__github__get_issue',
      'mcp__plugin_x_y__z',
    ];
    for (const tool of tools)
      expect({ tool, fires: claudeMatches(matcher, tool) }).toEqual({ tool, fires: true });
  });

  it('fires PreToolUse on mnemo’s own content-writing tools only, in each flavour', () => {
    for (const tool of ['remember', 'supersede_memory', 'checkpoint']) {
      expect(claudeMatches(matcherOf('PreToolUse'), `mcp__mnemo__${tool}`)).toBe(true);
      expect(
        claudeMatches(matcherOf('PreToolUse', 'plugin'), `mcp__plugin_mnemo_mnemo__${tool}`),
      ).toBe(true);
    }
    expect(claudeMatches(matcherOf('PreToolUse'), 'mcp__mnemo__recall')).toBe(false);
    expect(claudeMatches(matcherOf('PreToolUse'), 'mcp__mnemo__remember_all')).toBe(false);
    expect(claudeMatches(matcherOf('PreToolUse'), 'mcp__other__remember')).toBe(false);
    expect(claudeMatches(matcherOf('PreToolUse', 'plugin'), 'mcp__mnemo__remember')).toBe(false);
  });

  it('fires SessionStart on every source but fork, and PostToolUseFailure on Bash only', () => {
    for (const source of ['startup', 'resume', 'clear', 'compact']) {
      expect(claudeMatches(matcherOf('SessionStart'), source)).toBe(true);
    }
    expect(claudeMatches(matcherOf('SessionStart'), 'fork')).toBe(false);
    expect(claudeMatches(matcherOf('PostToolUseFailure'), 'Bash')).toBe(true);
    expect(claudeMatches(matcherOf('PostToolUseFailure'), 'WebFetch')).toBe(false);
  });

  it('gives events without matcher support, and PostToolUse, no matcher', () => {
    for (const event of ['UserPromptSubmit', 'PreCompact', 'SessionEnd', 'PostToolUse']) {
      expect(matcherOf(event)).toBeUndefined();
    }
  });
});

describe('buildRegistration', () => {
  it('builds `<prefix> hook <subcommand>` commands and an exec-form MCP server', () => {
    const registration = buildRegistration('settings', {
      hookPrefix: "'/opt/n ode' /x/main.js",
      mcpCommand: '/opt/n ode',
      mcpArgs: ['/x/main.js'],
    });
    expect(registration.hooks[0]?.group.hooks).toEqual([
      { type: 'command', command: "'/opt/n ode' /x/main.js hook session-start", timeout: 10 },
    ]);
    expect(registration.mcpServer).toEqual({
      type: 'stdio',
      command: '/opt/n ode',
      args: ['/x/main.js', 'mcp'],
    });
  });

  it('names own tools by the plugin-scoped server in the plugin flavour', () => {
    expect(ownToolPrefix('settings')).toBe('mcp__mnemo__');
    expect(ownToolPrefix('plugin')).toBe('mcp__plugin_mnemo_mnemo__');
  });
});
