/**
 * The built viewer in headless Chromium: start `mnemo ui` from the built binary and open a page on the
 * address it prints. Processes and the browser are closed after the tests of the file that uses it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

import { type Browser, chromium } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';

import { waitFor } from './engine-process.js';
import { MNEMO_BIN, type TestHome } from './mnemo-bin.js';

const CHROMIUM = process.env['MNEMO_CHROMIUM'] ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ViewerBrowser {
  launch(): Promise<Browser>;
  /** Starts the built `mnemo ui` in `cwd`; resolves with its printed address once it listens. */
  startUi(t: TestHome, cwd: string): Promise<{ child: ChildProcess; url: string }>;
}

export function useViewerBrowser(): ViewerBrowser {
  const children: ChildProcess[] = [];
  let browser: Browser | undefined;
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async launch() {
      if (!existsSync(CHROMIUM)) {
        throw new Error(`No Chromium at ${CHROMIUM}: install chromium, or set MNEMO_CHROMIUM.`);
      }
      browser ??= await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      return browser;
    },
    startUi(t, cwd) {
      const child = spawn(process.execPath, [MNEMO_BIN, 'ui', '--port', '0'], {
        cwd,
        env: t.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      return waitFor('the viewer address', () => {
        if (child.exitCode !== null) throw new Error(`mnemo ui exited ${child.exitCode}: ${err}`);
        const url = /(http:\/\/127\.0\.0\.1:\d+\/#(?:token|code)=[A-Za-z0-9_-]+)/.exec(out)?.[1];
        return url === undefined ? undefined : { child, url };
      });
    },
  };
}
