/**
 * `mnemo doctor` through the built binary in scratch homes: it passes on a working install, and each
 * broken part makes it exit 1 with a FAIL line that says how to fix it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openRawSqlite } from '../fixtures/sqlite/raw-sqlite.js';
import { doctorCheck, doctorJson } from '../helpers/doctor-json.js';
import { useEngines } from '../helpers/engine-process.js';
import { MNEMO_MAIN_MODULE, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();
const engines = useEngines();

/** A home whose embedder is the fast hash model, so the check does not load a neural model. */
function home(): TestHome {
  const h = newHome();
  h.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
  // The doctor starts an engine when none runs and background starts are on; it is killed after the test.
  h.env['MNEMO_ENGINE_AUTOSTART'] = '1';
  engines.watch(h);
  return h;
}

describe('mnemo doctor', () => {
  it('passes every check on an installed home and exits 0', async () => {
    const h = home();
    expect((await h.run(['install'])).code).toBe(0);
    expect((await h.run(['remember', 'the build uses pnpm'])).code).toBe(0);
    const { code, report } = await doctorJson(h);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
    expect(doctorCheck(report, 'store').data).toMatchObject({ problems: [] });
    expect(doctorCheck(report, 'capture (24h)').data).toMatchObject({ stored: 1 });
    expect(doctorCheck(report, 'embedder').detail).toContain('hash');
    expect(doctorCheck(report, 'engine').detail).toMatch(/^started on demand \(pid \d+/);
    // The engine it started keeps running (until its idle exit): a second run finds it.
    const again = await doctorJson(h);
    expect(doctorCheck(again.report, 'engine').detail).toMatch(/^running \(pid \d+/);
  });

  it('starts no engine when MNEMO_ENGINE_AUTOSTART=0, and says so without failing', async () => {
    const h = home();
    h.env['MNEMO_ENGINE_AUTOSTART'] = '0';
    expect((await h.run(['install'])).code).toBe(0);
    const { report } = await doctorJson(h);
    const engine = doctorCheck(report, 'engine');
    expect(engine).toMatchObject({ ok: true, data: { running: false, autoStart: false } });
    expect(engine.detail).toContain('MNEMO_ENGINE_AUTOSTART=0');
    expect(existsSync(join(h.home, 'engine.lock'))).toBe(false);
    expect(existsSync(join(h.home, 'engine.starting'))).toBe(false);
  });

  it('fails on a home without the Claude Code registration and says to run mnemo install', async () => {
    const h = home();
    const text = await h.run(['doctor']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^FAIL {2}hooks/m);
    expect(text.stdout).toContain('fix: Run `mnemo install`');
    expect(text.stderr).toContain('checks failed: hooks, mcp');
    const { report } = await doctorJson(h);
    expect(report.ok).toBe(false);
    expect(doctorCheck(report, 'hooks').fix).toContain('mnemo install');
    expect(doctorCheck(report, 'round trip').ok).toBe(true);
  });

  it('fails when the registered hooks point at a binary that no longer exists', async () => {
    const h = home();
    const gone = '/nonexistent/mnemo/dist/cli/main.js';
    expect((await h.run(['install', '--command', `node ${gone}`])).code).toBe(0);
    const { code, report } = await doctorJson(h);
    expect(code).toBe(1);
    const hooks = doctorCheck(report, 'hooks');
    expect(hooks.ok).toBe(false);
    expect(hooks.detail).toContain(`${gone}, which does not exist`);
    expect(doctorCheck(report, 'mcp').ok).toBe(false);
  });

  it('says to run mnemo install again when the hooks run the entry point of an earlier install', async () => {
    const h = home();
    const older = `${process.execPath} ${MNEMO_MAIN_MODULE}`;
    expect((await h.run(['install', '--command', older])).code).toBe(0);
    const before = doctorCheck((await doctorJson(h)).report, 'hooks');
    expect(before.ok).toBe(true);
    expect(before.detail).toContain('run `mnemo install` again');
    expect(before.data).toEqual({ olderEntryPoint: true });
    expect((await h.run(['install'])).code).toBe(0);
    const after = doctorCheck((await doctorJson(h)).report, 'hooks');
    expect(after).toMatchObject({ ok: true, detail: '7 hooks registered, binary present' });
  });

  it('fails on a store whose audit chain was edited and names the broken entry', async () => {
    const h = home();
    expect((await h.run(['install'])).code).toBe(0);
    expect((await h.run(['remember', 'release branches are cut on Mondays'])).code).toBe(0);
    const db = openRawSqlite(h.dbPath);
    db.exec('DROP TRIGGER audit_log_no_update');
    db.exec("UPDATE audit_log SET detail = '{}' WHERE seq = 1");
    db.close();
    const { code, report } = await doctorJson(h);
    expect(code).toBe(1);
    const store = doctorCheck(report, 'store');
    expect(store.ok).toBe(false);
    expect(store.detail).toContain('audit chain breaks at entry 1');
    expect(store.fix).toContain('mnemo export');
  });
});
