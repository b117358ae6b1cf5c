/**
 * `mnemo install --client <id>` / `mnemo uninstall --client <id>` through the built binary, into a
 * recorded config of each client (test/fixtures/clients: the user's other servers, settings, hooks and,
 * where the format allows, comments). The oracle for "restored" is a snapshot of every byte and mode
 * under the home. The MCP server is then started exactly as each written config says, through the
 * launcher, by the real MCP SDK client.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseJsoncText } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';

import { HOOK_TEST_ENV, hookFixture } from '../helpers/hook-fixtures.js';
import { snapshotTree } from '../helpers/install-files.js';
import { REPO_ROOT, runProcess, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { copyBuiltPackage } from '../helpers/package-copy.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const tempDir = useTempDirs();

const fixture = (name: string): string =>
  readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'clients', name), 'utf8');

type ClientCase = {
  client: string;
  /** The user-scope file holding the server, relative to HOME (Linux layout). */
  file: string;
  fixture: string;
  /** The server entry as the file holds it. */
  server: (launcher: string) => unknown;
  /** Reads the written server's command and args back from the file's text. */
  launch: (text: string) => { command: string; args: string[] };
  /** The file's content without mnemo's server, to compare with the recorded file's. */
  withoutMnemo: (text: string) => unknown;
};

const parseJsonc = (text: string): Record<string, Record<string, unknown>> =>
  parseJsoncText(text, [], { allowTrailingComma: true }) as Record<string, Record<string, unknown>>;

const jsonServer =
  (container: string) =>
  (text: string): { command: string; args: string[] } => {
    const entry = parseJsonc(text)[container]?.['mnemo'] as
      | { command: string; args: string[] }
      | undefined;
    if (entry === undefined) throw new Error(`no mnemo server under ${container}`);
    return { command: entry.command, args: entry.args };
  };

const jsonWithout =
  (container: string) =>
  (text: string): unknown => {
    const value = parseJsonc(text);
    delete value[container]?.['mnemo'];
    return value;
  };

/** Gemini CLI's settings without mnemo's server and hook groups (and the event lists only they filled). */
const geminiWithout = (text: string): unknown => {
  const value = jsonWithout('mcpServers')(text) as Record<string, Record<string, unknown>>;
  const hooks = value['hooks'] ?? {};
  for (const [event, groups] of Object.entries(hooks)) {
    const kept = (groups as { hooks: { command: string }[] }[]).filter(
      (g) => !g.hooks.some((x) => x.command.includes(' hook --client gemini ')),
    );
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  return value;
};

const tomlWithout = (text: string): string =>
  text.replace(/\n*\[mcp_servers\.mnemo\]\ncommand = [^\n]*\nargs = [^\n]*\n$/, '');

function tomlServer(text: string): { command: string; args: string[] } {
  const table = /\n\[mcp_servers\.mnemo\]\ncommand = ("[^"\n]*")\nargs = \[([^\]\n]*)\]\n/.exec(
    text,
  );
  if (table === null) throw new Error('no [mcp_servers.mnemo] table');
  return {
    command: JSON.parse(table[1] ?? '""') as string,
    args: JSON.parse(`[${table[2] ?? ''}]`) as string[],
  };
}

const CASES: ClientCase[] = [
  {
    client: 'cursor',
    file: '.cursor/mcp.json',
    fixture: 'cursor-mcp.json',
    server: (launcher) => ({ command: launcher, args: ['mcp'] }),
    launch: jsonServer('mcpServers'),
    withoutMnemo: jsonWithout('mcpServers'),
  },
  {
    client: 'vscode',
    file: '.config/Code/User/mcp.json',
    fixture: 'vscode-mcp.json',
    server: (launcher) => ({ type: 'stdio', command: launcher, args: ['mcp'] }),
    launch: jsonServer('servers'),
    withoutMnemo: jsonWithout('servers'),
  },
  {
    client: 'codex',
    file: '.codex/config.toml',
    fixture: 'codex-config.toml',
    server: (launcher) => ({ command: launcher, args: ['mcp'] }),
    launch: tomlServer,
    withoutMnemo: tomlWithout,
  },
  {
    client: 'gemini',
    file: '.gemini/settings.json',
    fixture: 'gemini-settings.json',
    server: (launcher) => ({ command: launcher, args: ['mcp'] }),
    launch: jsonServer('mcpServers'),
    withoutMnemo: geminiWithout,
  },
  {
    client: 'claude-desktop',
    file: '.config/Claude/claude_desktop_config.json',
    fixture: 'claude-desktop-config.json',
    server: (launcher) => ({ command: launcher, args: ['mcp'] }),
    launch: jsonServer('mcpServers'),
    withoutMnemo: jsonWithout('mcpServers'),
  },
];

async function ok(h: TestHome, args: string[], cwd?: string): Promise<string> {
  const result = await h.run(args, { cwd });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

function recorded(h: TestHome, c: ClientCase): string {
  const path = join(h.userHome, c.file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, fixture(c.fixture));
  if (c.client === 'cursor')
    writeFileSync(join(h.userHome, '.cursor', 'hooks.json'), fixture('cursor-hooks.json'));
  return path;
}

const launcherOf = (h: TestHome): string => join(h.home, 'bin', 'mnemo');

/** Starts the server as the client would from `launch`, and returns its tool names after one remember. */
async function runServer(
  h: TestHome,
  launch: { command: string; args: string[] },
  content: string,
): Promise<string[]> {
  const env = Object.fromEntries(
    Object.entries(h.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({ ...launch, env, cwd: h.project, stderr: 'pipe' });
  const client = new Client({ name: 'client-config-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const result = await client.callTool({ name: 'remember', arguments: { content } });
    expect(result.isError).not.toBe(true);
    const recalled = await client.callTool({ name: 'recall', arguments: { query: content } });
    expect(recalled.isError).not.toBe(true);
    const out = recalled.structuredContent as { memories: { quoted: string; origin: string }[] };
    expect(out.memories.map((m) => m.origin)).toEqual(['agent_tainted']);
    expect(out.memories[0]?.quoted).toContain(content);
    return tools;
  } finally {
    await client.close();
  }
}

describe.each(CASES)('mnemo install --client $client', (c) => {
  it('adds only mnemo’s server (through the launcher) to the recorded config, and uninstall restores it byte for byte', async () => {
    const h = newHome();
    const path = recorded(h, c);
    const before = snapshotTree(h.userHome);
    const out = await ok(h, ['install', '--client', c.client]);
    expect(out).toContain(`Installed into ${path}: updated`);
    const text = readFileSync(path, 'utf8');
    expect(c.launch(text)).toEqual({ command: launcherOf(h), args: ['mcp'] });
    // Nothing of the checkout is written into the client's file: only the launcher's path.
    expect(text).not.toContain(REPO_ROOT);
    expect(text).not.toContain(process.execPath);
    // The user's own content is all still there: the file minus mnemo's entry is the recorded file.
    expect(c.withoutMnemo(text)).toEqual(c.withoutMnemo(fixture(c.fixture)));
    // A second install changes nothing.
    const again = await ok(h, ['install', '--client', c.client]);
    expect(again).toContain('nothing changed');
    await ok(h, ['uninstall', '--client', c.client]);
    expect(snapshotTree(h.userHome)).toEqual(before);
    // The last uninstall takes the launcher with it.
    expect(snapshotTree(join(h.home, 'bin'))).toEqual({});
  });

  it('starts the server exactly as the written config says, and a remember from it is stored agent_tainted', async () => {
    const h = newHome();
    const path = recorded(h, c);
    await ok(h, ['install', '--client', c.client]);
    const launch = c.launch(readFileSync(path, 'utf8'));
    const tools = await runServer(h, launch, `the ${c.client} build runs in a container`);
    expect(tools).toEqual(expect.arrayContaining(['remember', 'recall', 'get_memory']));
    const rows = await withStore(h.home, (app) => app.store.listMemories({ limit: 5 }));
    // No hook linked the call to a session: the remember fails closed (threat model W5).
    expect(rows.map((m) => [m.content, m.origin])).toEqual([
      [`the ${c.client} build runs in a container`, 'agent_tainted'],
    ]);
  });

  it('removes only mnemo’s entries from a config the user changed after install', async () => {
    const h = newHome();
    const path = recorded(h, c);
    await ok(h, ['install', '--client', c.client]);
    // The user edits their own server after install (every recorded config starts one with npx).
    const installed = readFileSync(path, 'utf8');
    writeFileSync(path, installed.replace('"npx"', '"bunx"'));
    const out = await ok(h, ['uninstall', '--client', c.client]);
    expect(out).toContain('changed since install: removed only mnemo’s entries');
    expect(readFileSync(path, 'utf8')).toBe(fixture(c.fixture).replace('"npx"', '"bunx"'));
  });
});

describe('mnemo install --client into a home without the client’s files', () => {
  it.each(CASES.map((c) => c.client))(
    '%s: creates the files and directories, and uninstall removes them all',
    async (client) => {
      const h = newHome();
      await ok(h, ['install', '--client', client]);
      expect(Object.keys(snapshotTree(h.userHome)).length).toBeGreaterThan(0);
      await ok(h, ['uninstall', '--client', client]);
      expect(snapshotTree(h.userHome)).toEqual({});
    },
  );
});

describe('mnemo install --client --scope project', () => {
  it.each([
    ['cursor', ['.cursor/mcp.json', '.cursor/hooks.json']],
    ['vscode', ['.vscode/mcp.json']],
    ['gemini', ['.gemini/settings.json']],
  ])(
    '%s writes the project’s files, nothing in HOME, and uninstall restores the project',
    async (client, files) => {
      const h = newHome();
      mkdirSync(join(h.project, '.git'));
      const before = snapshotTree(h.project);
      await ok(h, ['install', '--client', client, '--scope', 'project']);
      for (const file of files) expect(snapshotTree(h.project)[file]).toMatch(/^file 644 /);
      expect(snapshotTree(h.userHome)).toEqual({});
      await ok(h, ['uninstall', '--client', client, '--scope', 'project']);
      expect(snapshotTree(h.project)).toEqual(before);
    },
  );

  it.each(['codex', 'claude-desktop'])(
    '%s has no project scope and says so, writing nothing',
    async (client) => {
      const h = newHome();
      const result = await h.run(['install', '--client', client, '--scope', 'project']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('has no project scope');
      expect(snapshotTree(h.userHome)).toEqual({});
      expect(snapshotTree(h.home)).toEqual({});
    },
  );
});

describe('the launcher', () => {
  /** A copy of the built package at `dir`, resolving its dependencies from the repository. */
  it('survives moving the install source: a re-install rewrites only the launcher, and uninstall is still byte for byte', async () => {
    const h = newHome();
    const cursorMcp = join(h.userHome, '.cursor', 'mcp.json');
    const c = CASES[0]!;
    recorded(h, c);
    const before = snapshotTree(h.userHome);
    const root = tempDir('mnemo-pkg-');
    const first = copyBuiltPackage(join(root, 'checkout-a'));
    const run = (bin: string, args: string[]) =>
      runProcess(process.execPath, [bin, ...args], { env: h.env, cwd: h.project });
    expect((await run(first, ['install', '--client', 'cursor'])).code).toBe(0);
    const config = readFileSync(cursorMcp, 'utf8');
    expect(readFileSync(launcherOf(h), 'utf8')).toContain(join(root, 'checkout-a', 'dist'));
    // Moved: the launcher's target is gone. A hook through it still exits 0 and prints nothing.
    renameSync(join(root, 'checkout-a'), join(root, 'checkout-b'));
    const gone = await runProcess(launcherOf(h), ['hook', '--client', 'cursor', 'afterFileEdit'], {
      env: h.env,
      cwd: h.project,
    });
    expect(gone).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(h.home, 'logs', 'mnemo.log'), 'utf8')).toContain(
      'launcher: the mnemo it runs is gone',
    );
    const cli = await runProcess(launcherOf(h), ['--version'], { env: h.env, cwd: h.project });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain("Run 'mnemo install' again");
    // Re-installed from the new place: the client's file is untouched, the launcher points there.
    const moved = join(root, 'checkout-b', 'dist', 'cli', 'mnemo.cjs');
    const out = await run(moved, ['install', '--client', 'cursor']);
    expect(out.stdout).toContain('nothing changed');
    expect(out.stdout).toContain(`Launcher ${launcherOf(h)} runs ${moved}`);
    expect(readFileSync(cursorMcp, 'utf8')).toBe(config);
    const tools = await runServer(
      h,
      jsonServer('mcpServers')(config),
      'moved checkouts keep working',
    );
    expect(tools).toContain('remember');
    expect((await run(moved, ['uninstall', '--client', 'cursor'])).code).toBe(0);
    expect(snapshotTree(h.userHome)).toEqual(before);
    expect(snapshotTree(join(h.home, 'bin'))).toEqual({});
  });

  it('Claude Code: the settings run the launcher, not the checkout; a hook through it captures; uninstall is byte for byte and takes the launcher', async () => {
    const h = newHome();
    const settingsPath = join(h.userHome, '.claude', 'settings.json');
    mkdirSync(dirname(settingsPath), { recursive: true });
    writeFileSync(
      settingsPath,
      '{\n  "model": "opus",\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n',
    );
    const before = snapshotTree(h.userHome);
    await ok(h, ['install']);
    for (const file of [settingsPath, join(h.userHome, '.claude.json')]) {
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(launcherOf(h));
      expect(text).not.toContain(REPO_ROOT);
      expect(text).not.toContain(process.execPath);
    }
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = settings.hooks['PostToolUse']
      ?.flatMap((g) => g.hooks.map((x) => x.command))
      .find((line) => line.endsWith(' hook post-tool-use'));
    expect(command).toBe(`${launcherOf(h)} hook post-tool-use`);
    // Run exactly as Claude Code does: the command line through a shell, the recorded Edit on stdin.
    const result = await runProcess('/bin/sh', ['-c', command ?? 'false'], {
      env: { ...h.env, ...HOOK_TEST_ENV },
      cwd: h.project,
      input: JSON.stringify(hookFixture('post-tool-use-edit', { cwd: h.project })),
    });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    const rows = await withStore(h.home, (app) => app.store.listMemories({ limit: 5 }));
    expect(rows.map((m) => [m.origin, m.originTool])).toEqual([['local_edit', 'Edit']]);
    await ok(h, ['uninstall']);
    expect(snapshotTree(h.userHome)).toEqual(before);
    expect(snapshotTree(join(h.home, 'bin'))).toEqual({});
  });

  it('stays while another client still uses it and goes with the last uninstall', async () => {
    const h = newHome();
    await ok(h, ['install', '--client', 'cursor']);
    await ok(h, ['install', '--client', 'gemini']);
    await ok(h, ['install']);
    await ok(h, ['uninstall', '--client', 'cursor']);
    expect(snapshotTree(join(h.home, 'bin'))).toHaveProperty('mnemo');
    await ok(h, ['uninstall']);
    expect(snapshotTree(join(h.home, 'bin'))).toHaveProperty('mnemo');
    const out = await ok(h, ['uninstall', '--client', 'gemini']);
    expect(out).toContain(`Removed the launcher ${launcherOf(h)}`);
    expect(snapshotTree(join(h.home, 'bin'))).toEqual({});
    expect(snapshotTree(h.userHome)).toEqual({});
  });
});
