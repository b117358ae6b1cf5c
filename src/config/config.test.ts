import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { isMemoryError } from '../core/errors.js';
import { CONFIG_DEFAULTS, loadConfig } from './config.js';

const tempDir = useTempDirs();

function homeWithConfig(content: string): string {
  const home = tempDir();
  writeFileSync(join(home, 'config.json'), content);
  return home;
}

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(isMemoryError(error, 'CONFIG_INVALID')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('loadConfig', () => {
  it('defaults the home to ~/.mnemo and the database to mnemo.db inside it', () => {
    const userHome = tempDir();
    const config = loadConfig({ env: {}, userHome });
    expect(config).toEqual({
      home: join(userHome, '.mnemo'),
      databasePath: join(userHome, '.mnemo', 'mnemo.db'),
      logFile: join(userHome, '.mnemo', 'logs', 'mnemo.log'),
      ...CONFIG_DEFAULTS,
    });
  });

  it('takes the home from MNEMO_HOME', () => {
    const home = tempDir();
    expect(loadConfig({ env: { MNEMO_HOME: home } }).databasePath).toBe(join(home, 'mnemo.db'));
  });

  it('reads config.json and lets the environment and overrides win over it', () => {
    const home = homeWithConfig(
      JSON.stringify({ busyTimeoutMs: 10, logLevel: 'warn', recallLimit: 3, databaseFile: 'x.db' }),
    );
    const config = loadConfig({
      env: { MNEMO_HOME: home, MNEMO_BUSY_TIMEOUT_MS: '250' },
      overrides: { logLevel: 'debug' },
    });
    expect(config).toMatchObject({
      busyTimeoutMs: 250,
      logLevel: 'debug',
      recallLimit: 3,
      databasePath: join(home, 'x.db'),
    });
  });

  it('ignores undefined overrides', () => {
    const home = homeWithConfig(JSON.stringify({ recallLimit: 7 }));
    expect(
      loadConfig({ env: { MNEMO_HOME: home }, overrides: { recallLimit: undefined } }).recallLimit,
    ).toBe(7);
  });

  it('rejects a config file that is not JSON and says how to fix it', () => {
    const home = homeWithConfig('{ nope');
    expect(configError(() => loadConfig({ env: { MNEMO_HOME: home } }))).toMatch(
      /config\.json is not valid JSON .*Fix the syntax or remove the file/,
    );
  });

  it('names the field that violates the schema', () => {
    const home = homeWithConfig(JSON.stringify({ busyTimeoutMs: -1 }));
    expect(configError(() => loadConfig({ env: { MNEMO_HOME: home } }))).toMatch(
      /Field "busyTimeoutMs" in the config file .* is invalid: .*Fix the value or remove the field/,
    );
  });

  it('names an unknown field and lists the known ones', () => {
    const home = homeWithConfig(JSON.stringify({ recalLimit: 5 }));
    expect(configError(() => loadConfig({ env: { MNEMO_HOME: home } }))).toMatch(
      /Unknown field "recalLimit" .*known fields are databaseUrl, author, databaseFile, busyTimeoutMs/,
    );
  });

  it('refuses a database file name with a directory part', () => {
    const home = homeWithConfig(JSON.stringify({ databaseFile: '../elsewhere.db' }));
    expect(configError(() => loadConfig({ env: { MNEMO_HOME: home } }))).toMatch(
      /Field "databaseFile"/,
    );
  });

  it('rejects an invalid environment value and names the variable', () => {
    const home = tempDir();
    expect(
      configError(() => loadConfig({ env: { MNEMO_HOME: home, MNEMO_BUSY_TIMEOUT_MS: 'soon' } })),
    ).toMatch(/MNEMO_BUSY_TIMEOUT_MS="soon" is invalid.*Fix or unset it/);
    expect(
      configError(() => loadConfig({ env: { MNEMO_HOME: home, MNEMO_LOG_LEVEL: 'loud' } })),
    ).toMatch(/MNEMO_LOG_LEVEL="loud"/);
  });

  it('reports an unreadable config file', () => {
    const home = tempDir();
    // A directory in place of the file fails to read even as root, unlike chmod 000.
    mkdirSync(join(home, 'config.json'));
    expect(configError(() => loadConfig({ env: { MNEMO_HOME: home } }))).toMatch(
      /Cannot read the config file/,
    );
  });

  it('reads the write-path settings and merges flood limits per origin over the defaults', () => {
    const home = homeWithConfig(
      JSON.stringify({
        mcpTools: { 'mcp__fetch__*': 'network', mcp__db__query: 'local_read' },
        taint: { strict: true },
        detectors: 'off',
        flood: { windowMinutes: 5, maxPerOrigin: { network: 3, unknown: null } },
      }),
    );
    const config = loadConfig({ env: { MNEMO_HOME: home } });
    expect(config.mcpTools).toEqual({ 'mcp__fetch__*': 'network', mcp__db__query: 'local_read' });
    expect(config.taint).toEqual({ strict: true });
    expect(config.detectors).toBe('off');
    expect(config.flood.windowMinutes).toBe(5);
    expect(config.flood.maxPerOrigin).toEqual({
      ...CONFIG_DEFAULTS.flood.maxPerOrigin,
      network: 3,
      unknown: undefined,
    });
    expect('unknown' in config.flood.maxPerOrigin).toBe(false);
    expect(config.flood.maxPerOrigin.user).toBeUndefined();
  });

  it('takes the detectors switch from MNEMO_DETECTORS', () => {
    const home = tempDir();
    expect(loadConfig({ env: { MNEMO_HOME: home, MNEMO_DETECTORS: 'off' } }).detectors).toBe('off');
    expect(
      configError(() => loadConfig({ env: { MNEMO_HOME: home, MNEMO_DETECTORS: 'maybe' } })),
    ).toMatch(/MNEMO_DETECTORS="maybe"/);
  });

  it.each([
    [{ mcpTools: { 'mcp__fetch__*': 'user' } }, /Field "mcpTools.mcp__fetch__\*"/],
    [{ mcpTools: { WebFetch: 'network' } }, /Field "mcpTools.WebFetch".*mcp__<server>__<tool>/],
    [{ taint: { strict: 'yes' } }, /Field "taint.strict"/],
    [{ detectors: 'sometimes' }, /Field "detectors"/],
    [{ flood: { maxPerOrigin: { network: -1 } } }, /Field "flood.maxPerOrigin.network"/],
    [{ flood: { maxPerOrigin: { robots: 3 } } }, /flood.maxPerOrigin/],
    [{ flood: { windowMinutes: 0 } }, /Field "flood.windowMinutes"/],
  ])('refuses the invalid write setting %j and names the field', (content, message) => {
    const home = homeWithConfig(JSON.stringify(content));
    expect(configError(() => loadConfig({ env: { MNEMO_HOME: home } }))).toMatch(message);
  });

  it('reads the injection budgets, keeping the default of the one not given', () => {
    expect(CONFIG_DEFAULTS.injection).toEqual({
      sessionStartTokens: 1500,
      promptTokens: 600,
      proactiveLocal: false,
    });
    const home = homeWithConfig(JSON.stringify({ injection: { promptTokens: 0 } }));
    expect(loadConfig({ env: { MNEMO_HOME: home } }).injection).toEqual({
      sessionStartTokens: 1500,
      promptTokens: 0,
      proactiveLocal: false,
    });
  });

  it('reads the proactive-local opt-in and refuses a non-boolean', () => {
    const home = homeWithConfig(JSON.stringify({ injection: { proactiveLocal: true } }));
    expect(loadConfig({ env: { MNEMO_HOME: home } }).injection.proactiveLocal).toBe(true);
    const bad = homeWithConfig(JSON.stringify({ injection: { proactiveLocal: 'yes' } }));
    expect(() => loadConfig({ env: { MNEMO_HOME: bad } })).toThrow(/injection.proactiveLocal/);
  });

  it.each([
    [{ injection: { sessionStartTokens: 2401 } }, /Field "injection.sessionStartTokens"/],
    [{ injection: { promptTokens: -1 } }, /Field "injection.promptTokens"/],
    [{ injection: { promptTokens: 1.5 } }, /Field "injection.promptTokens"/],
    [{ injection: { everything: true } }, /injection/],
  ])('refuses the invalid injection setting %j and names the field', (content, message) => {
    const home = homeWithConfig(JSON.stringify(content));
    expect(configError(() => loadConfig({ env: { MNEMO_HOME: home } }))).toMatch(message);
  });

  it('lets MNEMO_ENGINE_AUTOSTART switch background engine starts off and on, and refuses other values', () => {
    const home = homeWithConfig(JSON.stringify({ engine: { idleExitMinutes: 5 } }));
    expect(loadConfig({ env: { MNEMO_HOME: home } }).engine).toEqual({
      idleExitMinutes: 5,
      autoStart: true,
    });
    expect(loadConfig({ env: { MNEMO_HOME: home, MNEMO_ENGINE_AUTOSTART: '0' } }).engine).toEqual({
      idleExitMinutes: 5,
      autoStart: false,
    });
    expect(() =>
      loadConfig({ env: { MNEMO_HOME: home, MNEMO_ENGINE_AUTOSTART: 'maybe' } }),
    ).toThrow(/MNEMO_ENGINE_AUTOSTART/);
  });
});
