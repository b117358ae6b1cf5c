/**
 * The shipped Claude Code plugin layout (`.claude-plugin/plugin.json`, `hooks/hooks.json`, `.mcp.json`
 * at the package root) against the registration table `mnemo install` uses: one source of truth, and
 * this test fails when the files drift from it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  buildRegistration,
  HOOK_REGISTRATIONS,
  PLUGIN_LAUNCHER,
  pluginLayout,
} from '../../src/core/install/registration.js';
import { EMPTY_ORIGIN_CONFIG } from '../../src/core/origin/classify-origin.js';
import { isRememberTool } from '../../src/core/origin/own-tools.js';
import { REPO_ROOT } from '../helpers/mnemo-bin.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
  files: string[];
};

describe('the Claude Code plugin layout', () => {
  it.each(Object.entries(pluginLayout(pkg)))(
    '%s matches the registration table',
    (path, expected) => {
      const actual: unknown = JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8'));
      expect(
        actual,
        `${path} drifted from src/core/install/registration.ts; write it as:\n${JSON.stringify(expected, null, 2)}`,
      ).toEqual(expected);
    },
  );

  it('registers the same events, matchers and timeouts as mnemo install, apart from tool and path names', () => {
    const shape = (flavour: 'settings' | 'plugin') =>
      buildRegistration(flavour, PLUGIN_LAUNCHER).hooks.map(({ event, group }) => ({
        event,
        matcher: group.matcher?.replace(/mcp__(plugin_mnemo_)?mnemo__/, '<own>'),
        timeout: group.hooks[0]?.timeout,
      }));
    expect(shape('plugin')).toEqual(shape('settings'));
    expect(shape('plugin').map((row) => row.event)).toEqual(
      HOOK_REGISTRATIONS.map((row) => row.event),
    );
  });

  it('points the PreToolUse matcher of each flavour at mnemo’s own content-writing tools', () => {
    for (const flavour of ['settings', 'plugin'] as const) {
      const pre = buildRegistration(flavour, PLUGIN_LAUNCHER).hooks.find(
        (h) => h.event === 'PreToolUse',
      );
      const matcher = new RegExp(pre?.group.matcher ?? '^$');
      const prefix = flavour === 'plugin' ? 'mcp__plugin_mnemo_mnemo__' : 'mcp__mnemo__';
      for (const tool of ['remember', 'supersede_memory', 'checkpoint', 'recall', 'forget']) {
        // The hook and the matcher must agree on which calls need a claim.
        expect(matcher.test(prefix + tool)).toBe(
          isRememberTool(prefix + tool, EMPTY_ORIGIN_CONFIG),
        );
      }
    }
  });

  it('ships the plugin files in the npm package', () => {
    expect(pkg.files).toEqual(
      expect.arrayContaining(['dist', '.claude-plugin', 'hooks', '.mcp.json']),
    );
  });
});
