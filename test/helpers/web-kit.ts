/**
 * Test support for the web viewer: the real Hono app over a real store in a temporary home, called in
 * process with `app.request` (no socket), with helpers that send what the viewer's own page sends (Host,
 * token, and for changes Origin, CSRF token and a JSON body) unless a test overrides a header.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Hono } from 'hono';

import { type App, processAuthor } from '../../src/app/open-app.js';
import type { Clock } from '../../src/ports/clock.js';
import { createWebApp } from '../../src/web/create-web-app.js';
import { loadUiAssets } from '../../src/web/web-assets.js';
import type { WebModels } from '../../src/web/web-context.js';
import { OpenCodes } from '../../src/web/web-open-codes.js';
import { openTestApp } from './test-app.js';

export const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstu';
export const CSRF = 'test-csrf-0123456789abcdefghijklmnopqrstuv';
export const PORT = 7477;
export const HOST = `127.0.0.1:${PORT}`;
export const ORIGIN = `http://${HOST}`;
export const ACTOR = 'web-ui:tester';

export interface WebKit {
  app: App;
  web: Hono;
  /** A raw request; `headers` replace the defaults of the same name (null removes one). */
  request(
    path: string,
    init?: { method?: string; headers?: Record<string, string | null>; body?: string },
  ): Promise<Response>;
  /** GET as the page does; throws with the body unless the status is 2xx. */
  get<T = Record<string, unknown>>(path: string): Promise<T>;
  /** POST as the page does; returns the response. */
  post(path: string, body?: unknown): Promise<Response>;
}

/** A tiny built front end: index.html and one hashed asset. */
function fakeBuild(dir: string): string {
  const ui = join(dir, 'ui');
  mkdirSync(join(ui, 'assets'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>mnemo</title>');
  writeFileSync(join(ui, 'assets', 'index-abc123.js'), 'console.log("viewer")');
  return ui;
}

export async function openWebKit(
  home: string,
  options: {
    clock?: Clock;
    models?: WebModels;
    defaultProject?: string | null;
    openCodes?: OpenCodes;
    /** More environment for the app (MNEMO_DATABASE_URL, MNEMO_AUTHOR). */
    env?: Record<string, string>;
  } = {},
): Promise<WebKit> {
  const app = await openTestApp(home, {
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const web = createWebApp({
    app,
    actor: ACTOR,
    reader: processAuthor(app.config).user,
    models: () => Promise.resolve(options.models ?? { embedder: undefined, reranker: undefined }),
    catchUpEmbeddings: true,
    defaultProject: options.defaultProject ?? null,
    servedBy: 'ui',
    identity: { port: () => PORT },
    token: TOKEN,
    csrfToken: CSRF,
    assets: loadUiAssets(fakeBuild(home)),
    version: '0.0.0-test',
    openCodes: options.openCodes ?? new OpenCodes(),
  });
  const request: WebKit['request'] = (path, init = {}) => {
    const headers: Record<string, string> = {};
    const defaults: Record<string, string> = {
      host: HOST,
      authorization: `Bearer ${TOKEN}`,
    };
    if (init.method !== undefined && init.method !== 'GET') {
      Object.assign(defaults, {
        origin: ORIGIN,
        'x-csrf-token': CSRF,
        'content-type': 'application/json',
      });
    }
    const given = Object.fromEntries(
      Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    for (const [name, value] of Object.entries({ ...defaults, ...given })) {
      if (value !== null) headers[name] = value;
    }
    return Promise.resolve(
      web.request(path, {
        method: init.method ?? 'GET',
        headers,
        ...(init.body === undefined ? {} : { body: init.body }),
      }),
    );
  };
  return {
    app,
    web,
    request,
    async get<T>(path: string): Promise<T> {
      const response = await request(path);
      const text = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    },
    post: (path, body = {}) => request(path, { method: 'POST', body: JSON.stringify(body) }),
  };
}
