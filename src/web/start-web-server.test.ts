import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { startWebServer, type WebServer } from './start-web-server.js';

const tempDir = useTempDirs();
const opened: { app: TestApp; servers: WebServer[] }[] = [];
afterEach(async () => {
  for (const { app, servers } of opened.splice(0)) {
    for (const server of servers) await server.close();
    await app.close();
  }
});

async function setup() {
  const home = tempDir();
  const ui = join(home, 'ui');
  mkdirSync(ui);
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>mnemo</title>');
  const app = await openTestApp(home);
  const entry = { app, servers: [] as WebServer[] };
  opened.push(entry);
  const start = async (port: number, fallback: boolean) => {
    const server = await startWebServer({
      app,
      port,
      fallback,
      models: () => Promise.resolve({ embedder: undefined, reranker: undefined }),
      catchUpEmbeddings: false,
      defaultProject: null,
      servedBy: 'ui',
      assetsDir: ui,
    });
    entry.servers.push(server);
    return server;
  };
  return { start };
}

/** A raw HTTP GET with a chosen Host header, as a rebinding page's request would arrive. */
function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startWebServer', () => {
  it('listens on 127.0.0.1 with a fresh token each start, printed in the fragment', async () => {
    const { start } = await setup();
    const a = await start(0, false);
    const b = await start(0, false);
    const token = (url: string) => /#token=([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=/);
    expect(token(a.url)).toBeDefined();
    expect(token(a.url)).not.toBe(token(b.url));
    const auth = { authorization: `Bearer ${token(a.url)}` };
    expect(await get(a.port, '/api/session', { ...auth, host: `127.0.0.1:${a.port}` })).toBe(200);
    expect(await get(a.port, '/api/session', { ...auth, host: `rebound.example:${a.port}` })).toBe(
      403,
    );
    expect(await get(a.port, '/api/session', { host: `127.0.0.1:${a.port}` })).toBe(401);
    // Another start's token opens nothing here.
    const other = { authorization: `Bearer ${token(b.url)}`, host: `127.0.0.1:${a.port}` };
    expect(await get(a.port, '/api/session', other)).toBe(401);
    expect(a.openUrl()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${a.port}/#code=`));
  });

  it('refuses a port it was asked for when it is taken, and takes a free one when it was not', async () => {
    const { start } = await setup();
    const first = await start(0, false);
    await expect(start(first.port, false)).rejects.toMatchObject({ code: 'CONFLICT' });
    const second = await start(first.port, true);
    expect(second.port).not.toBe(first.port);
  });

  it('says how to build the front end when it is missing', async () => {
    const app = await openTestApp(tempDir());
    opened.push({ app, servers: [] });
    const error = await startWebServer({
      app,
      port: 0,
      fallback: false,
      models: () => Promise.resolve({ embedder: undefined, reranker: undefined }),
      catchUpEmbeddings: false,
      defaultProject: null,
      servedBy: 'ui',
      assetsDir: join(tempDir(), 'nothing-here'),
    }).then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error?.code).toBe('UNSUPPORTED');
    expect(error?.message).toContain('npm run build');
  });
});
