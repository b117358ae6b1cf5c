/**
 * The harder undo cases of `mnemo uninstall`, through the built binary on real files: files changed
 * after install (Claude Code rewrites `~/.claude.json` all the time), a lost manifest, a foreign server
 * named `mnemo`, and project scope.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  readJson,
  RICH_CLAUDE_JSON,
  RICH_SETTINGS,
  snapshotTree,
} from '../helpers/install-files.js';
import { MNEMO_BIN, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();

interface Home extends TestHome {
  settings: string;
  claudeJson: string;
}

function richHome(claudeJson = RICH_CLAUDE_JSON): Home {
  const h = newHome();
  const settings = join(h.userHome, '.claude', 'settings.json');
  const claude = join(h.userHome, '.claude.json');
  mkdirSync(join(h.userHome, '.claude'));
  writeFileSync(settings, RICH_SETTINGS);
  writeFileSync(claude, claudeJson);
  return { ...h, settings, claudeJson: claude };
}

async function ok(h: TestHome, args: string[], cwd?: string): Promise<string> {
  const result = await h.run(args, { cwd });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

/** What Claude Code does to its own file while running: rewrite it whole with a counter bumped. */
function bumpStartups(path: string): Record<string, unknown> {
  const value = readJson(path);
  value['numStartups'] = (value['numStartups'] as number) + 1;
  writeFileSync(path, JSON.stringify(value, null, 2));
  return value;
}

describe('mnemo uninstall after the files changed', () => {
  it('removes only mnemo’s entries from a file changed since install, and says so', async () => {
    const h = richHome();
    await ok(h, ['install']);
    const changed = bumpStartups(h.claudeJson);
    const out = await ok(h, ['uninstall']);
    expect(out).toContain(`${h.claudeJson}: updated`);
    expect(out).toContain('changed since install: removed only mnemo’s entries');
    const expected = { ...changed, mcpServers: { ...(changed['mcpServers'] as object) } };
    delete (expected.mcpServers as Record<string, unknown>)['mnemo'];
    // Claude Code's own layout comes back exactly: two spaces, no trailing newline.
    expect(readFileSync(h.claudeJson, 'utf8')).toBe(JSON.stringify(expected, null, 2));
    // The untouched settings file is still restored byte for byte.
    expect(readFileSync(h.settings, 'utf8')).toBe(RICH_SETTINGS);
  });

  it('keeps the user’s own edits to the settings and drops every mnemo hook', async () => {
    const h = richHome();
    await ok(h, ['install']);
    const installed = readFileSync(h.settings, 'utf8');
    writeFileSync(h.settings, installed.replace('"model": "opus"', '"model": "sonnet"'));
    const out = await ok(h, ['uninstall']);
    expect(out).toContain('changed since install');
    const expected = JSON.parse(RICH_SETTINGS) as Record<string, unknown>;
    expected['model'] = 'sonnet';
    expect(readJson(h.settings)).toEqual(expected);
    expect(readFileSync(h.settings, 'utf8')).not.toContain(MNEMO_BIN);
    // A backup of the changed file is taken before mnemo edits it.
    const backup = /backup: (\S+\.mnemo-backup-\S+)/.exec(out)?.[1];
    expect(backup).toBeDefined();
    expect(readFileSync(backup!, 'utf8')).toContain('"model": "sonnet"');
  });

  it('deletes a file it created once mnemo’s entries were its only content', async () => {
    const h = newHome();
    await ok(h, ['install']);
    const claude = join(h.userHome, '.claude.json');
    writeFileSync(claude, readFileSync(claude, 'utf8').replace(/\n$/, '') + '\n\n');
    await ok(h, ['uninstall']);
    expect(snapshotTree(h.userHome)).toEqual({});
  });

  it('recognises its entries by command when the manifest is gone', async () => {
    const h = richHome();
    await ok(h, ['install']);
    rmSync(join(h.home, 'install-manifest.json'));
    const out = await ok(h, ['uninstall']);
    expect(out).toContain('no install record (recognised by command)');
    expect(readJson(h.settings)).toEqual(JSON.parse(RICH_SETTINGS));
    expect(readJson(h.claudeJson)).toEqual(JSON.parse(RICH_CLAUDE_JSON));
  });

  it('puts back a foreign server named mnemo that install replaced', async () => {
    const foreign = { command: 'docker', args: ['run', 'someone/else'] };
    const original = JSON.parse(RICH_CLAUDE_JSON) as { mcpServers: Record<string, unknown> };
    original.mcpServers['mnemo'] = foreign;
    const h = richHome(JSON.stringify(original, null, 2));
    await ok(h, ['install']);
    expect((readJson(h.claudeJson)['mcpServers'] as Record<string, unknown>)['mnemo']).not.toEqual(
      foreign,
    );
    const changed = bumpStartups(h.claudeJson);
    await ok(h, ['uninstall']);
    expect(readJson(h.claudeJson)).toEqual({ ...changed, mcpServers: original.mcpServers });
  });

  it('leaves an MCP entry the user edited after install, and says so', async () => {
    const h = richHome();
    await ok(h, ['install']);
    const value = readJson(h.claudeJson) as { mcpServers: Record<string, { args: string[] }> };
    value.mcpServers['mnemo']!.args.push('--verbose');
    writeFileSync(h.claudeJson, JSON.stringify(value, null, 2));
    const out = await ok(h, ['uninstall']);
    expect(out).toContain('left mcpServers.mnemo (edited after install)');
    expect(readJson(h.claudeJson)).toEqual(value);
  });
});

describe('mnemo install --scope project', () => {
  function repo(h: TestHome): { root: string; sub: string } {
    const root = join(h.project, 'acme');
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(join(root, 'src', 'lib'), { recursive: true });
    return { root, sub: join(root, 'src', 'lib') };
  }

  it('writes the project root’s .claude/settings.json and .mcp.json, and nothing in HOME', async () => {
    const h = newHome();
    const { root, sub } = repo(h);
    const out = await ok(h, ['install', '--scope', 'project'], sub);
    expect(out).toContain(`--scope project writes into ${root}`);
    const settings = readJson(join(root, '.claude', 'settings.json'));
    expect(Object.keys(settings['hooks'] as object)).toHaveLength(7);
    expect(readJson(join(root, '.mcp.json'))).toEqual({
      mcpServers: {
        mnemo: { type: 'stdio', command: join(h.home, 'bin', 'mnemo'), args: ['mcp'] },
      },
    });
    expect(snapshotTree(h.userHome)).toEqual({});
    expect(snapshotTree(sub)).toEqual({});
  });

  it('uninstall restores the project byte for byte, existing .mcp.json included', async () => {
    const h = newHome();
    const { root, sub } = repo(h);
    const mcp = '{\n    "mcpServers": {\n        "db": { "command": "pg-mcp" }\n    }\n}\n';
    writeFileSync(join(root, '.mcp.json'), mcp);
    const before = snapshotTree(root);
    await ok(h, ['install', '--scope', 'project'], sub);
    const installed = readFileSync(join(root, '.mcp.json'), 'utf8');
    expect(installed).toContain('\n        "db": { "command": "pg-mcp" },\n        "mnemo": {\n');
    await ok(h, ['install', '--scope', 'project'], root);
    await ok(h, ['uninstall', '--scope', 'project'], sub);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('keeps user and project installs apart', async () => {
    const h = richHome();
    const { root } = repo(h);
    const userBefore = snapshotTree(h.userHome);
    await ok(h, ['install', '--scope', 'project'], root);
    await ok(h, ['install'], root);
    await ok(h, ['uninstall', '--scope', 'project'], root);
    expect(snapshotTree(join(root, '.claude'))).toEqual({});
    expect(readJson(h.settings)['hooks']).toHaveProperty('PreCompact');
    await ok(h, ['uninstall'], root);
    expect(snapshotTree(h.userHome)).toEqual(userBefore);
  });
});
