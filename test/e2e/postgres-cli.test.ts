/**
 * The built `mnemo` on a real PostgreSQL server (MNEMO_DATABASE_URL): remember → recall, stats saying
 * which backend serves, clear CLI errors for bad configuration, hooks that spool while the server is
 * unreachable and lose nothing once it is back, and the SQLite default that never loads `pg`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { useEngines, waitFor } from '../helpers/engine-process.js';
import { HOOK_TEST_ENV, hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import {
  idFrom,
  MNEMO_BIN,
  runProcess,
  type TestHome,
  useTestHomes,
} from '../helpers/mnemo-bin.js';
import { describeWithPostgres, freshSchema } from '../helpers/postgres-test-db.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const newHome = useTestHomes();
const engines = useEngines();
const TRACER = new URL('../helpers/trace-imports.mjs', import.meta.url).pathname;

function withUrl(t: TestHome, url: string): TestHome {
  Object.assign(t.env, { MNEMO_DATABASE_URL: url, MNEMO_EMBEDDING_MODEL: 'hash' });
  return t;
}

function spoolFiles(t: TestHome): string[] {
  const dir = join(t.home, 'spool');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.jsonl')) : [];
}

describeWithPostgres('mnemo on PostgreSQL (built binary)', (server) => {
  const proxies: TcpProxy[] = [];
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
  });

  it('remembers and recalls through MNEMO_DATABASE_URL, and stats names the backend', async () => {
    const t = withUrl(newHome(), await server.url({ schema: freshSchema() }));
    const remembered = await t.run([
      'remember',
      'The staging cluster is called heliotrope',
      '--tag',
      'ops',
    ]);
    expect(remembered.code, remembered.stderr).toBe(0);
    const id = idFrom(remembered.stdout);
    const recalled = await t.run(['recall', 'staging cluster', '--json']);
    expect(recalled.code, recalled.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(recalled.stdout))).toContain(id);
    const stats = await t.run(['stats', '--json']);
    const parsed = JSON.parse(stats.stdout) as { backend: string; path: string; memories: number };
    expect(parsed).toMatchObject({ backend: 'postgres', memories: 1 });
    expect(parsed.path).toMatch(/^postgres:\/\/127\.0\.0\.1:\d+\/mnemo_test_\w+ \(schema s_/);
    const text = await t.run(['stats']);
    expect(text.stdout).toMatch(/^backend: {5}postgres\n/);
    // Nothing went to the local file.
    expect(existsSync(t.dbPath)).toBe(false);
  });

  it('exits 1 with the fix for a database that does not exist', async () => {
    const t = withUrl(newHome(), await server.url({ database: 'no_such_database' }));
    const result = await t.run(['remember', 'lost?']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^mnemo: The database named in postgres:\/\/.*does not exist.*createdb/,
    );
  });

  it('exits 1 with the fix for a malformed URL', async () => {
    const t = withUrl(newHome(), 'mysql://nope');
    const result = await t.run(['list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/databaseUrl|postgres:\/\//);
  });

  it('spools a capture while the server is unreachable, exits 0, and the engine stores it once it is back', async () => {
    const proxy = await startTcpProxy(Number(new URL(server.adminUrl).port));
    proxies.push(proxy);
    const url = new URL(await server.url({ schema: freshSchema() }));
    url.port = String(proxy.port);
    const t = withUrl(newHome(), url.toString());
    // The schema exists before the outage, as for a team that used it yesterday.
    expect((await t.run(['stats'])).code).toBe(0);
    await proxy.cut();
    const payload = hookFixture('post-tool-use-edit', { cwd: t.project });
    const hook = await runHookBin(t, 'post-tool-use', payload);
    expect({ code: hook.code, stdout: hook.stdout }).toEqual({ code: 0, stdout: '' });
    expect(spoolFiles(t)).toHaveLength(1);
    expect(readFileSync(join(t.home, 'logs', 'mnemo.log'), 'utf8')).toMatch(
      /"msg":"capture.spooled","hook":"post-tool-use","trigger":"store_unavailable"/,
    );
    const down = await t.run(['list', '--all', '--json']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Cannot reach PostgreSQL/);
    await proxy.restore();
    engines.watch(t);
    const engine = await engines.start(t, ['--idle-exit', '0'], {
      MNEMO_DATABASE_URL: url.toString(),
    });
    const listed = async (): Promise<string[]> => {
      const result = await t.run(['list', '--all', '--json']);
      return result.code === 0
        ? (JSON.parse(result.stdout) as { memories: { content: string }[] }).memories.map(
            (m) => m.content,
          )
        : [];
    };
    await waitFor('the spooled capture in PostgreSQL', async () => (await listed()).length === 1);
    expect(spoolFiles(t)).toEqual([]);
    engine.child.kill('SIGTERM');
    await engine.exited;
    // The same capture hooked again live merges into it: stored exactly once.
    await runHookBin(t, 'post-tool-use', payload);
    expect(await listed()).toHaveLength(1);
  });
});

it('never loads the pg driver on the SQLite default, in a hook or the CLI', async () => {
  const t = newHome();
  const trace = join(t.userHome, 'imports.txt');
  const env = { ...t.env, ...HOOK_TEST_ENV, MNEMO_TRACE_IMPORTS: trace };
  const payload = JSON.stringify(hookFixture('post-tool-use-edit', { cwd: t.project }));
  for (const args of [
    ['hook', 'post-tool-use'],
    ['remember', 'sqlite only'],
  ]) {
    const result = await runProcess(process.execPath, ['--import', TRACER, MNEMO_BIN, ...args], {
      env,
      cwd: t.project,
      input: args[0] === 'hook' ? payload : '',
    });
    expect(result.code, result.stderr).toBe(0);
  }
  const loaded = readFileSync(trace, 'utf8').split('\n');
  expect(loaded.some((url) => url.includes('better-sqlite3'))).toBe(true);
  expect(
    loaded.filter((url) => /node_modules\/pg(-[a-z]+)?\/|store\/postgres\//.test(url)),
  ).toEqual([]);
});
