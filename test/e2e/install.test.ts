/**
 * `mnemo install` / `mnemo uninstall` through the built binary, in a scratch HOME (and CLAUDE_CONFIG_DIR),
 * on real files. The oracle for "restored" is a snapshot of every byte and mode under the home.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HOOK_REGISTRATIONS } from '../../src/core/install/registration.js';
import { hookFixture } from '../helpers/hook-fixtures.js';
import {
  readJson,
  RICH_CLAUDE_JSON,
  RICH_SETTINGS,
  snapshotTree,
} from '../helpers/install-files.js';
import { MNEMO_MAIN_MODULE, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();

/** The launcher every install writes and registers (src/install/launcher.ts). */
function launcherOf(h: TestHome): string {
  return join(h.home, 'bin', 'mnemo');
}

interface Home extends TestHome {
  settings: string;
  claudeJson: string;
  manifest: string;
}

function home(): Home {
  const h = newHome();
  return {
    ...h,
    settings: join(h.userHome, '.claude', 'settings.json'),
    claudeJson: join(h.userHome, '.claude.json'),
    manifest: join(h.home, 'install-manifest.json'),
  };
}

function richHome(): Home {
  const h = home();
  mkdirSync(join(h.userHome, '.claude'));
  writeFileSync(h.settings, RICH_SETTINGS);
  writeFileSync(h.claudeJson, RICH_CLAUDE_JSON, { mode: 0o600 });
  chmodSync(h.claudeJson, 0o600);
  return h;
}

async function ok(h: TestHome, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await h.run(args, { env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

type Group = { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] };

function hooksOf(path: string): Record<string, Group[]> {
  return readJson(path)['hooks'] as Record<string, Group[]>;
}

function mnemoGroups(path: string, event: string): Group[] {
  return (hooksOf(path)[event] ?? []).filter((g) =>
    g.hooks.some((h) => h.command.includes(`${join('bin', 'mnemo')} hook `)),
  );
}

/** Runs a registered command through `sh -c` as Claude Code does, feeding `input`. */
function runShell(
  command: string,
  h: TestHome,
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { env: h.env, cwd: h.project, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('mnemo install into an empty home', () => {
  it('registers every hook with its matcher and timeout, and the MCP server in ~/.claude.json', async () => {
    const h = home();
    const out = await ok(h, ['install']);
    expect(out).toContain(`+++ ${h.settings}`);
    expect(out).toContain(`Installed into ${h.claudeJson}: created`);
    for (const row of HOOK_REGISTRATIONS) {
      const groups = mnemoGroups(h.settings, row.event);
      expect(groups).toHaveLength(1);
      expect(groups[0]!.hooks).toEqual([
        {
          type: 'command',
          command: `${launcherOf(h)} hook ${row.subcommand}`,
          timeout: row.timeout,
        },
      ]);
      expect(groups[0]!.matcher).toBe(row.matcher?.('mcp__mnemo__'));
    }
    expect(readJson(h.claudeJson)).toEqual({
      mcpServers: { mnemo: { type: 'stdio', command: launcherOf(h), args: ['mcp'] } },
    });
    expect(statSync(h.claudeJson).mode & 0o777).toBe(0o600);
  });

  it('uninstall leaves the home exactly as it was, created directories included', async () => {
    const h = home();
    const before = snapshotTree(h.userHome);
    await ok(h, ['install']);
    expect(existsSync(h.settings)).toBe(true);
    const out = await ok(h, ['uninstall']);
    expect(out).toContain('restored byte for byte');
    expect(snapshotTree(h.userHome)).toEqual(before);
    expect(existsSync(h.manifest)).toBe(false);
  });

  it('writes into $CLAUDE_CONFIG_DIR instead of ~/.claude when it is set, and nothing into HOME', async () => {
    const h = home();
    const configDir = join(h.userHome, 'alt-claude');
    const env = { CLAUDE_CONFIG_DIR: configDir };
    await ok(h, ['install'], env);
    expect(readdirSync(h.userHome)).toEqual(['alt-claude']);
    expect(mnemoGroups(join(configDir, 'settings.json'), 'SessionStart')).toHaveLength(1);
    expect(Object.keys(readJson(join(configDir, '.claude.json'))['mcpServers']!)).toEqual([
      'mnemo',
    ]);
    await ok(h, ['uninstall'], env);
    expect(readdirSync(h.userHome)).toEqual([]);
  });
});

describe('mnemo install into a home with rich settings', () => {
  it('keeps every unrelated setting, hook and server, and the files’ layout and modes', async () => {
    const h = richHome();
    await ok(h, ['install']);
    const settings = readJson(h.settings);
    const original = JSON.parse(RICH_SETTINGS) as Record<string, unknown>;
    for (const key of ['$schema', 'permissions', 'env', 'model', 'cleanupPeriodDays']) {
      expect(settings[key]).toEqual(original[key]);
    }
    expect(Object.keys(settings)).toEqual(Object.keys(original));
    const hooks = hooksOf(h.settings);
    const originalHooks = original['hooks'] as Record<string, Group[]>;
    expect(hooks['PostToolUse']![0]).toEqual(originalHooks['PostToolUse']![0]);
    expect(hooks['SessionStart']![0]).toEqual(originalHooks['SessionStart']![0]);
    expect(hooks['Stop']).toEqual(originalHooks['Stop']);
    expect(hooks['PostToolUse']).toHaveLength(2);
    // Untouched lines are byte-identical: tab indentation kept, still no trailing newline.
    const text = readFileSync(h.settings, 'utf8');
    expect(text).toContain(
      '\t"permissions": {\n\t\t"allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],',
    );
    expect(text.endsWith('}')).toBe(true);
    const claude = readJson(h.claudeJson);
    expect(Object.keys(claude)).toEqual(Object.keys(JSON.parse(RICH_CLAUDE_JSON) as object));
    expect(Object.keys(claude['mcpServers'] as object)).toEqual(['github', 'remote', 'mnemo']);
    expect(statSync(h.claudeJson).mode & 0o777).toBe(0o600);
  });

  it('backs up each file before writing it', async () => {
    const h = richHome();
    const out = await ok(h, ['install']);
    const backups = [h.settings, h.claudeJson].map((file) => {
      const match = new RegExp(`backup: (${file.replaceAll('.', '\\.')}\\.mnemo-backup-\\S+)`).exec(
        out,
      );
      expect(match).not.toBeNull();
      return match![1]!;
    });
    expect(readFileSync(backups[0]!, 'utf8')).toBe(RICH_SETTINGS);
    expect(readFileSync(backups[1]!, 'utf8')).toBe(RICH_CLAUDE_JSON);
    expect(statSync(backups[1]!).mode & 0o777).toBe(0o600);
  });

  it('uninstall restores both files byte for byte and removes its backups', async () => {
    const h = richHome();
    const before = snapshotTree(h.userHome);
    await ok(h, ['install']);
    expect(snapshotTree(h.userHome)).not.toEqual(before);
    await ok(h, ['uninstall']);
    expect(snapshotTree(h.userHome)).toEqual(before);
  });

  it('changes nothing on a second install and says so', async () => {
    const h = richHome();
    await ok(h, ['install']);
    const after = { user: snapshotTree(h.userHome), mnemo: snapshotTree(h.home) };
    const out = await ok(h, ['install']);
    expect(out).toContain('mnemo is already installed (user scope); nothing changed.');
    expect(out).not.toContain('+++');
    expect({ user: snapshotTree(h.userHome), mnemo: snapshotTree(h.home) }).toEqual(after);
    await ok(h, ['uninstall']);
    expect(readFileSync(h.settings, 'utf8')).toBe(RICH_SETTINGS);
  });
});

describe('mnemo install --dry-run', () => {
  it('prints the diff of each file and writes nothing, manifest included', async () => {
    const h = richHome();
    const before = { user: snapshotTree(h.userHome), mnemo: snapshotTree(h.home) };
    const out = await ok(h, ['install', '--dry-run']);
    expect(out).toContain(`--- ${h.settings}`);
    expect(out).toContain(`+++ ${h.claudeJson}`);
    expect(out).toContain('+    "mnemo": {');
    expect(out).toContain('Dry run: nothing was written.');
    expect({ user: snapshotTree(h.userHome), mnemo: snapshotTree(h.home) }).toEqual(before);
  });

  it('uninstall --dry-run shows the removal and keeps the install', async () => {
    const h = richHome();
    await ok(h, ['install']);
    const installed = snapshotTree(h.userHome);
    const out = await ok(h, ['uninstall', '--dry-run']);
    expect(out).toContain(`Would uninstall from ${h.settings}: updated`);
    expect(snapshotTree(h.userHome)).toEqual(installed);
  });
});

describe('mnemo install refusals', () => {
  it('refuses invalid JSON naming the file and line, and writes nothing', async () => {
    const h = richHome();
    writeFileSync(h.settings, '{\n  "model": "opus",\n}\n');
    const before = { user: snapshotTree(h.userHome), mnemo: snapshotTree(h.home) };
    const result = await h.run(['install']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${h.settings}:3:1: not valid JSON`);
    expect({ user: snapshotTree(h.userHome), mnemo: snapshotTree(h.home) }).toEqual(before);
  });

  it('refuses a hooks key that is not an object rather than overwrite it', async () => {
    const h = home();
    mkdirSync(join(h.userHome, '.claude'));
    writeFileSync(h.settings, '{ "hooks": [] }\n');
    const result = await h.run(['install']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"hooks" is not an object');
    expect(readFileSync(h.settings, 'utf8')).toBe('{ "hooks": [] }\n');
    expect(existsSync(h.claudeJson)).toBe(false);
  });

  it('refuses a --command that needs a shell', async () => {
    const h = home();
    const result = await h.run(['install', '--command', 'mnemo; rm -rf ~']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--command must be a plain command');
    expect(readdirSync(h.userHome)).toEqual([]);
  });
});

describe('mnemo install commands', () => {
  it('uses --command for the hooks and the MCP server', async () => {
    const h = home();
    await ok(h, ['install', '--command', "'/opt/my tools/mnemo' --quiet"]);
    expect(hooksOf(h.settings)['SessionEnd']![0]!.hooks[0]!.command).toBe(
      "'/opt/my tools/mnemo' --quiet hook session-end",
    );
    expect(readJson(h.claudeJson)['mcpServers']).toEqual({
      mnemo: { type: 'stdio', command: '/opt/my tools/mnemo', args: ['--quiet', 'mcp'] },
    });
  });

  it('replaces its own entries in place when the binary moved, and still restores byte for byte', async () => {
    const h = richHome();
    const before = snapshotTree(h.userHome);
    await ok(h, ['install', '--command', '/old/place/mnemo']);
    await ok(h, ['install']);
    for (const row of HOOK_REGISTRATIONS) {
      const commands = (hooksOf(h.settings)[row.event] ?? []).flatMap((g) =>
        g.hooks.map((x) => x.command),
      );
      expect(commands.filter((c) => c.endsWith(`hook ${row.subcommand}`))).toEqual([
        `${launcherOf(h)} hook ${row.subcommand}`,
      ]);
    }
    await ok(h, ['uninstall']);
    const after = snapshotTree(h.userHome);
    // The second install's backups of the first install's state stay for the user.
    for (const key of Object.keys(after)) if (key.includes('mnemo-backup')) delete after[key];
    expect(after).toEqual(before);
  });

  it('replaces an install of the earlier entry point (dist/cli/main.js), whose hooks still work, and uninstall restores byte for byte', async () => {
    const h = richHome();
    const before = snapshotTree(h.userHome);
    await ok(h, ['install', '--command', `${process.execPath} ${MNEMO_MAIN_MODULE}`]);
    const older =
      (hooksOf(h.settings)['PostToolUse'] ?? [])
        .flatMap((g) => g.hooks.map((x) => x.command))
        .find((command) => command.endsWith(' hook post-tool-use')) ?? '';
    expect(older).toBe(`${process.execPath} ${MNEMO_MAIN_MODULE} hook post-tool-use`);
    const payload = JSON.stringify(hookFixture('post-tool-use-edit', { cwd: h.project }));
    const edit = await runShell(older, h, payload);
    expect(edit).toEqual({ code: 0, stdout: '', stderr: '' });
    const stored = await withStore(h.home, (app) => app.store.listMemories({ limit: 5 }));
    expect(stored.map((memory) => memory.origin)).toEqual(['local_edit']);
    await ok(h, ['install']);
    const text = readFileSync(h.settings, 'utf8');
    expect(text).not.toContain(MNEMO_MAIN_MODULE);
    expect(mnemoGroups(h.settings, 'PostToolUse')[0]?.hooks[0]?.command).toBe(
      `${launcherOf(h)} hook post-tool-use`,
    );
    await ok(h, ['uninstall']);
    const after = snapshotTree(h.userHome);
    for (const key of Object.keys(after)) if (key.includes('mnemo-backup')) delete after[key];
    expect(after).toEqual(before);
  });

  it('every registered hook command runs the built binary through sh and exits 0', async () => {
    const h = home();
    await ok(h, ['install']);
    for (const [event, groups] of Object.entries(hooksOf(h.settings))) {
      const command = groups[0]!.hooks[0]!.command;
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn('sh', ['-c', command], { env: h.env, cwd: h.project, stdio: 'pipe' });
        child.on('error', reject);
        child.on('close', resolve);
        child.stdin.end(
          JSON.stringify({ hook_event_name: event, session_id: 's', cwd: h.project }),
        );
      });
      expect({ event, code }).toEqual({ event, code: 0 });
    }
  });

  it('writes through a symlinked settings file and keeps the link', async () => {
    const h = home();
    const dotfiles = join(h.userHome, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(join(h.userHome, '.claude'));
    writeFileSync(join(dotfiles, 'settings.json'), '{\n  "model": "opus"\n}\n');
    symlinkSync(join(dotfiles, 'settings.json'), h.settings);
    const before = snapshotTree(h.userHome);
    await ok(h, ['install']);
    expect(lstatSync(h.settings).isSymbolicLink()).toBe(true);
    expect(realpathSync(h.settings)).toBe(join(dotfiles, 'settings.json'));
    expect(mnemoGroups(h.settings, 'PreCompact')).toHaveLength(1);
    await ok(h, ['uninstall']);
    expect(snapshotTree(h.userHome)).toEqual(before);
  });
});
