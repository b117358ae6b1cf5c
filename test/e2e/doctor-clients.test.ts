/**
 * `mnemo doctor`'s `clients` check through the built binary: every other client mnemo is installed for is
 * reported with what its config runs, and a config that is gone, does not parse, lost mnemo's entry or
 * runs a launcher whose mnemo moved away fails with the client named and the fix.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { doctorCheck, doctorJson } from '../helpers/doctor-json.js';
import { REPO_ROOT, runProcess, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const newHome = useTestHomes();
const tempDir = useTempDirs();

function home(): TestHome {
  const h = newHome();
  h.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
  // No engine: this file checks configs, and the engine check says why it did not start one.
  h.env['MNEMO_ENGINE_AUTOSTART'] = '0';
  return h;
}

async function ok(h: TestHome, args: string[]): Promise<void> {
  const result = await h.run(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

const MAIN = join(REPO_ROOT, 'dist', 'cli', 'mnemo.cjs');

describe('mnemo doctor: other clients', () => {
  it('reports each installed client with what it runs, and the Claude Code checks say mnemo is installed elsewhere', async () => {
    const h = home();
    await ok(h, ['install', '--client', 'cursor']);
    await ok(h, ['install', '--client', 'codex']);
    const { report } = await doctorJson(h);
    const clients = doctorCheck(report, 'clients');
    expect(clients.ok).toBe(true);
    const launcher = join(h.home, 'bin', 'mnemo');
    expect(clients.data).toEqual({
      clients: [
        {
          client: 'cursor',
          scope: 'user',
          path: join(h.userHome, '.cursor', 'mcp.json'),
          ok: true,
          runs: `${launcher} → ${MAIN}`,
        },
        {
          client: 'cursor',
          scope: 'user',
          path: join(h.userHome, '.cursor', 'hooks.json'),
          ok: true,
          runs: `${launcher} → ${MAIN}`,
        },
        {
          client: 'codex',
          scope: 'user',
          path: join(h.userHome, '.codex', 'config.toml'),
          ok: true,
          runs: `${launcher} → ${MAIN}`,
        },
      ],
    });
    for (const name of ['hooks', 'mcp']) {
      expect(doctorCheck(report, name)).toMatchObject({
        ok: true,
        detail: 'Claude Code: not registered; mnemo is installed for Cursor, Codex (see clients)',
      });
    }
  });

  it('passes with a hint when no other client is registered', async () => {
    const h = home();
    await ok(h, ['install']);
    const clients = doctorCheck((await doctorJson(h)).report, 'clients');
    expect(clients).toMatchObject({ ok: true });
    expect(clients.detail).toMatch(/^no other client registered/);
  });

  it('fails for a config that no longer parses, one that lost mnemo’s entry, and one that is gone', async () => {
    const h = home();
    await ok(h, ['install', '--client', 'claude-desktop']);
    await ok(h, ['install', '--client', 'gemini']);
    await ok(h, ['install', '--client', 'vscode']);
    const desktop = join(h.userHome, '.config', 'Claude', 'claude_desktop_config.json');
    writeFileSync(desktop, `${readFileSync(desktop, 'utf8')}}`);
    const gemini = join(h.userHome, '.gemini', 'settings.json');
    writeFileSync(gemini, '{\n  // the user started over\n  "theme": "GitHub"\n}\n');
    const vscode = join(h.userHome, '.config', 'Code', 'User', 'mcp.json');
    rmSync(vscode);
    const { code, report } = await doctorJson(h);
    expect(code).toBe(1);
    const clients = doctorCheck(report, 'clients');
    expect(clients.ok).toBe(false);
    expect(clients.detail).toContain(`Claude Desktop (user) ${desktop}: ${desktop}:`);
    expect(clients.detail).toContain('not valid JSON');
    expect(clients.detail).toContain(
      `Gemini CLI (user) ${gemini}: mnemo’s entries are no longer in the file`,
    );
    expect(clients.detail).toContain(
      `VS Code (user) ${vscode}: recorded as installed, but the file is gone`,
    );
    expect(clients.fix).toContain('`mnemo install --client claude-desktop`');
    expect(clients.fix).toContain('`mnemo install --client gemini`');
  });

  it('follows the launcher: a config whose mnemo moved away fails until install runs from the new place', async () => {
    const h = home();
    const root = tempDir('mnemo-pkg-');
    const copy = join(root, 'checkout');
    mkdirSync(copy);
    cpSync(join(REPO_ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(REPO_ROOT, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'));
    const moved = join(copy, 'dist', 'cli', 'mnemo.cjs');
    for (const args of [['install', '--client', 'cursor'], ['install']]) {
      const installed = await runProcess(process.execPath, [moved, ...args], {
        env: h.env,
        cwd: h.project,
      });
      expect(installed.code, installed.stderr).toBe(0);
    }
    // The checkout the launcher runs is deleted (moved, or an update removed it).
    rmSync(copy, { recursive: true });
    const { report } = await doctorJson(h);
    const clients = doctorCheck(report, 'clients');
    expect(clients.ok).toBe(false);
    expect(clients.detail).toContain(`runs ${moved}, which does not exist`);
    expect(clients.fix).toContain('`mnemo install --client cursor`');
    // The Claude Code checks follow the same launcher.
    expect(doctorCheck(report, 'hooks')).toMatchObject({ ok: false });
    expect(doctorCheck(report, 'hooks').detail).toContain(`${moved}, which does not exist`);
    // One install from the mnemo in use rewrites the launcher, and every config follows.
    await ok(h, ['install', '--client', 'cursor']);
    const fixed = await doctorJson(h);
    expect(doctorCheck(fixed.report, 'clients').ok).toBe(true);
    expect(doctorCheck(fixed.report, 'hooks').ok).toBe(true);
  });
});
