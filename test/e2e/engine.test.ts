/**
 * `mnemo serve` as it ships: the built binary in real processes, talking over a real Unix socket. Every
 * engine a test starts is killed after it (test/helpers/engine-process.ts). No timing is asserted: waits
 * are generous polls for an outcome.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { engineRecall } from '../../src/engine/engine-call.js';
import { pingEngine } from '../../src/engine/engine-client.js';
import { MAX_REQUEST_BYTES } from '../../src/engine/engine-wire.js';
import { openRawSqlite } from '../fixtures/sqlite/raw-sqlite.js';
import { doctorCheck, doctorJson } from '../helpers/doctor-json.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { openTestApp } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();
const HASH = { MNEMO_EMBEDDING_MODEL: 'hash' };

function hashHome(): TestHome {
  const t = newHome();
  Object.assign(t.env, HASH);
  return t;
}

function lockOf(t: TestHome): { pid: number; socket: string; startedAt: string } {
  return JSON.parse(readFileSync(join(t.home, 'engine.lock'), 'utf8')) as {
    pid: number;
    socket: string;
    startedAt: string;
  };
}

/** Sends raw lines on the engine socket and collects the answer until the engine closes or 2 s pass. */
function rawExchange(socket: string, text: string): Promise<{ lines: unknown[]; closed: boolean }> {
  return new Promise((resolve) => {
    const conn = connect(socket);
    let data = '';
    let closed = false;
    const finish = () => {
      conn.destroy();
      resolve({
        lines: data
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as unknown),
        closed,
      });
    };
    const timer = setTimeout(finish, 2000);
    conn.on('data', (chunk: Buffer) => {
      data += chunk.toString();
    });
    conn.on('end', () => {
      closed = true;
      clearTimeout(timer);
      finish();
    });
    conn.on('error', () => undefined);
    conn.write(text);
  });
}

/** A pid that is certainly not running. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

async function unembedded(t: TestHome): Promise<number> {
  const app = await openTestApp(t.home);
  try {
    return (await app.store.listUnembedded('hash-v1-256', 1000)).length;
  } finally {
    await app.close();
  }
}

describe('mnemo serve (built binary)', () => {
  it('answers ping with the token, with a 0600 token file and its pid in the lock', async () => {
    const t = hashHome();
    const engine = await engines.start(t, ['--idle-exit', '0']);
    const ping = await pingEngine({ home: t.home }, 5000);
    expect(ping).toMatchObject({
      pid: engine.pid,
      protocol: 1,
      home: t.home,
      embedder: 'hash-v1-256',
      queues: { spoolFiles: 0, spoolBytes: 0 },
    });
    expect(lockOf(t)).toMatchObject({ pid: engine.pid, socket: join(t.home, 'engine.sock') });
    expect(lstatSync(join(t.home, 'engine.token')).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(t.home, 'engine.sock')).mode & 0o777).toBe(0o600);
  });

  it('refuses a request with a wrong or missing token and closes the connection', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    const { socket } = lockOf(t);
    const token = readFileSync(join(t.home, 'engine.token'), 'utf8').trim();
    for (const bad of [{ token: 'a'.repeat(64) }, {}, { token: token.slice(0, 63) }]) {
      const answer = await rawExchange(
        socket,
        `${JSON.stringify({ v: 1, id: 1, op: 'ping', ...bad })}\n`,
      );
      expect(answer).toEqual({
        lines: [
          {
            v: 1,
            id: 1,
            ok: false,
            error: { code: 'UNAUTHORIZED', message: 'wrong or missing token' },
          },
        ],
        closed: true,
      });
    }
    const good = await rawExchange(
      socket,
      `${JSON.stringify({ v: 1, id: 2, token, op: 'ping' })}\n`,
    );
    expect(good.lines[0]).toMatchObject({ id: 2, ok: true, result: { protocol: 1 } });
    const log = readFileSync(join(t.home, 'logs', 'mnemo.log'), 'utf8');
    expect(log).toContain('engine: request refused (wrong or missing token)');
    expect(log).not.toContain(token);
  });

  it('refuses a request line over the size limit and drops the connection', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    const answer = await rawExchange(lockOf(t).socket, 'x'.repeat(MAX_REQUEST_BYTES + 1024));
    expect(answer.lines[0]).toMatchObject({ ok: false, error: { code: 'TOO_LARGE' } });
    expect(answer.closed).toBe(true);
  });

  it('runs one engine per home: a second `mnemo serve` exits 0 naming the running one', async () => {
    const t = hashHome();
    const engine = await engines.start(t, ['--idle-exit', '0']);
    const second = await t.run(['serve', '--foreground']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`already running for ${t.home} (pid ${engine.pid})`);
    const background = await t.run(['serve']);
    expect(background.code).toBe(0);
    expect(background.stdout).toContain(`(pid ${engine.pid})`);
    expect(lockOf(t).pid).toBe(engine.pid);
  });

  it('reclaims the lock and socket left by an engine that died', async () => {
    const t = hashHome();
    mkdirSync(t.home, { recursive: true, mode: 0o700 });
    const stale = {
      pid: deadPid(),
      startedAt: '2020-01-01T00:00:00.000Z',
      nonce: 'dead',
      socket: join(t.home, 'engine.sock'),
      version: '0.0.1',
      protocol: 1,
    };
    writeFileSync(join(t.home, 'engine.lock'), JSON.stringify(stale), { mode: 0o600 });
    writeFileSync(join(t.home, 'engine.sock'), '');
    const engine = await engines.start(t, ['--idle-exit', '0']);
    expect(lockOf(t).pid).toBe(engine.pid);
    expect((await pingEngine({ home: t.home }, 5000))?.pid).toBe(engine.pid);
  });

  it('exits on its own after the idle time, removing its socket and lock', async () => {
    const t = hashHome();
    const engine = await engines.start(t, ['--idle-exit', '1s']);
    expect(existsSync(join(t.home, 'engine.sock'))).toBe(true);
    expect(await engine.exited).toBe(0);
    expect(engine.stdout()).toContain('mnemo engine stopped (idle)');
    expect(existsSync(join(t.home, 'engine.sock'))).toBe(false);
    expect(existsSync(join(t.home, 'engine.lock'))).toBe(false);
  });

  it('shuts down cleanly on SIGTERM and on a stop request', async () => {
    const t = hashHome();
    const first = await engines.start(t, ['--idle-exit', '0']);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stdout()).toContain('stopped (signal)');
    expect(existsSync(join(t.home, 'engine.lock'))).toBe(false);
    expect(existsSync(join(t.home, 'engine.sock'))).toBe(false);

    const second = await engines.start(t, ['--idle-exit', '0']);
    const stop = await t.run(['serve', '--stop']);
    expect(stop.stdout).toContain(`Stopped the mnemo engine (pid ${second.pid})`);
    expect(await second.exited).toBe(0);
    expect(existsSync(join(t.home, 'engine.lock'))).toBe(false);
  });

  it('starts in the background with `mnemo serve` and reports its status', async () => {
    const t = hashHome();
    engines.watch(t);
    const started = await t.run(['serve', '--idle-exit', '2m']);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/^mnemo engine running for .* \(pid \d+\)\.\n$/);
    const status = await t.run(['serve', '--status']);
    expect(status.stdout).toMatch(
      /^mnemo engine \S+ running for .*: pid \d+, up \d+ s, embedder hash-v1-256/,
    );
    const pid = lockOf(t).pid;
    expect((await t.run(['serve', '--stop'])).stdout).toContain(`(pid ${pid})`);
    await waitFor('the background engine to exit', () => !existsSync(join(t.home, 'engine.lock')));
    expect((await t.run(['serve', '--status'])).stdout).toBe(
      `No mnemo engine is running for ${t.home}.\n`,
    );
  });

  it('embeds the memories that were stored without a vector', async () => {
    const t = hashHome();
    for (const text of [
      'the staging database lags one day',
      'deploys go through make release',
      'tests run with vitest',
    ]) {
      expect((await t.run(['remember', text])).code).toBe(0);
    }
    expect(await unembedded(t)).toBe(3);
    await engines.start(t, ['--idle-exit', '0']);
    await waitFor('the engine to embed every memory', async () => (await unembedded(t)) === 0);
    expect((await pingEngine({ home: t.home }, 5000))?.queues.unembedded).toBe(0);
  });

  it('drops vectors of an older rule when it starts and rebuilds them in the background', async () => {
    const t = hashHome();
    for (const text of ['the staging database lags one day', 'deploys go through make release']) {
      expect((await t.run(['remember', text])).code).toBe(0);
    }
    expect((await t.run(['reembed'])).code).toBe(0);
    // What the code before rules were recorded left: the same vectors, no rule record.
    const spacesOf = () => {
      const db = openRawSqlite(t.dbPath);
      try {
        db.prepare("DELETE FROM model_state WHERE model LIKE 'vector-rule:%'").run();
        return db.prepare('SELECT table_name FROM vector_spaces').pluck().all() as string[];
      } finally {
        db.close();
      }
    };
    const before = spacesOf();
    expect(before).toHaveLength(1);
    await engines.start(t, ['--idle-exit', '0']);
    await waitFor('the engine to rebuild both vectors', async () => {
      const check = doctorCheck((await doctorJson(t)).report, 'vectors');
      return check.ok && check.data?.['vectors'] === 2;
    });
    const after = openRawSqlite(t.dbPath);
    try {
      const tables = after
        .prepare('SELECT table_name FROM vector_spaces')
        .pluck()
        .all() as string[];
      expect(tables).toHaveLength(1);
      expect(after.prepare(`SELECT count(*) FROM ${tables[0]}`).pluck().get()).toBe(2);
      // Dropped, then rebuilt: the audit log holds the drop of both.
      const drops = after
        .prepare("SELECT detail FROM audit_log WHERE action = 'delete-vector-model'")
        .pluck()
        .all() as string[];
      expect(drops.map((d) => JSON.parse(d) as unknown)).toEqual([
        { model: 'hash-v1-256', removed: 2 },
      ]);
    } finally {
      after.close();
    }
  });

  it('runs hybrid recall for a client, and the client returns undefined when no engine runs', async () => {
    const t = hashHome();
    await t.run(['remember', 'Set NODE_ENV=production before the build']);
    await t.run(['remember', 'the build runs on CI every night']);
    const request = {
      query: 'NODE_ENV build',
      scope: { projectKey: t.project, includeGlobal: true },
      limit: 5,
    };
    expect(await engineRecall({ home: t.home }, request, 2000)).toBeUndefined();
    await engines.start(t, ['--idle-exit', '0']);
    await waitFor('embeddings', async () => (await unembedded(t)) === 0);
    const hits = await engineRecall({ home: t.home }, request, 10_000);
    expect(hits?.[0]?.memory.content).toBe('Set NODE_ENV=production before the build');
    expect(Object.keys(hits?.[0]?.ranks ?? {}).sort()).toEqual(['identifier', 'lexical', 'vector']);
    expect(hits?.every((hit) => hit.memory.projectKey === t.project)).toBe(true);
    // A request the engine would refuse is not sent at all.
    expect(await engineRecall({ home: t.home }, { ...request, limit: 0 }, 2000)).toBeUndefined();
  });

  it('moves the socket of a long home into a private directory under the temp dir', async () => {
    const t = hashHome();
    const home = join(
      t.home,
      'a-rather-long-directory-name-to-push-the-socket-path',
      'over-the-sun-path-limit',
    );
    t.env['MNEMO_HOME'] = home;
    const engine = await engines.start(t, ['--idle-exit', '0']);
    engines.watch({ ...t, home });
    const lock = JSON.parse(readFileSync(join(home, 'engine.lock'), 'utf8')) as { socket: string };
    expect(lock.socket.startsWith(home)).toBe(false);
    expect(Buffer.byteLength(lock.socket)).toBeLessThanOrEqual(103);
    const dir = lock.socket.slice(0, lock.socket.lastIndexOf('/'));
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    expect((await pingEngine({ home }, 5000))?.pid).toBe(engine.pid);
    engine.child.kill('SIGTERM');
    expect(await engine.exited).toBe(0);
    expect(existsSync(lock.socket)).toBe(false);
  });
});
